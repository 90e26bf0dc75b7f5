/**
 * `@replan/core/store-kit` — what you need to write a `SessionStore` (as `@replan/postgres` does).
 * An application only picks a store; it does not need this.
 *
 * A store keeps what the `SessionStore` interface says and passes the shared contract suite
 * (`runSessionStoreContract` from `@replan/core/testing`). These helpers keep every store's rules
 * the same:
 * - identifiers and state: `assertSessionKey` / `assertUserKey` first in every method (bad ids are
 *   an `InvalidArgumentError`), `jsonStateDelta` / `jsonStateAppend` (state values are JSON, else
 *   `StateValueError`);
 * - versions and pages: `assertExpectedVersion` (stale version → `ConcurrentUpdateError`),
 *   `assertPageLimit`, `pageSummaries` / `compareSummaries`, `encodeCursor` / `decodeCursor`;
 * - what is written: `eventsForStorage` (drops `temp:` keys from state changes),
 *   `splitStateDelta` (which keys go to app, user or session state), `stateScopeOf` and the
 *   `APP_PREFIX`, `USER_PREFIX`, `TEMP_PREFIX` key prefixes;
 * - what is read back: `decodeStoredEvent` and `assertSchemaVersion` (a corrupt or foreign record
 *   is a `SessionCorruptError`), `parseAgentEvent` / `agentEventSchema`, `foldSessionState`
 *   (state as the fold of the events), `SESSION_SCHEMA_VERSION`;
 * - images and files: `extractBlobs` (an append's inline `data` becomes blobs named by SHA-256, with
 *   `maxBlobBytes` checked), `blobsToStore` (which of them are new, the session's named blobs and
 *   `maxSessionBlobBytes` checked), `resolveBlobLimits`, `assertSessionBlobTotal`, `unheldBlobError`,
 *   `isBlobId`, `blobIdOf`;
 *   a store that keeps blobs implements `readBlob` (a missing one is a `SessionCorruptError`);
 * - a run's input: `toUserMessage` (what `runner.run({ input })` stores as the user's message, for a
 *   queue that creates a session with its input before any runner sees it);
 * - leases (optional `acquireLease` / `renewLease` / `releaseLease`, and `AppendOptions.lease`):
 *   `acquireFrom`, `renewFrom`, `assertAppendLease`, `isCurrentLease` decide from a `LeaseRecord`
 *   (last token, holder); `assertLeaseOwner`, `assertLeaseTtl`, `assertSessionLease` check arguments;
 * - a lease's holder process: `thisProcess()` (host, boot, pid namespace, pid, start time) to store
 *   with a lease, and `holderState` / `isHolderGone` to tell, from another process, that the holder
 *   died on this machine (take it over at once) or cannot be judged (wait for expiry).
 *
 * See docs/extending.md ("Writing a session store").
 * @module
 */
export { SESSION_SCHEMA_VERSION, isReadableSchemaVersion } from '../sessions/session.js';
export { blobsToStore, extractBlobs, unheldBlobError } from '../sessions/blobs/extract-blobs.js';
export type { ExtractedBlobs, NewBlob } from '../sessions/blobs/extract-blobs.js';
export { assertSessionBlobTotal, resolveBlobLimits } from '../sessions/blobs/blob-limits.js';
export type { ResolvedBlobLimits } from '../sessions/blobs/blob-limits.js';
export { isBlobId } from '../sessions/blobs/blob-id.js';
export { mediaOf } from '../messages/map-media.js';
export {
  assertSchemaVersion,
  assertExpectedVersion,
  assertPageLimit,
  decodeStoredEvent,
  eventsForStorage,
} from '../sessions/stored-event.js';
export { compareSummaries, encodeCursor, decodeCursor, pageSummaries } from '../sessions/session-paging.js';
export { APP_PREFIX, USER_PREFIX, stateScopeOf, splitStateDelta } from '../sessions/state-scope.js';
export { foldSessionState } from '../sessions/fold-state.js';
export { assertSessionKey, assertUserKey } from '../sessions/session-key-rules.js';
export { jsonStateDelta } from '../sessions/json-state.js';
export { agentEventSchema } from '../events/event-schema.js';
export type { LeaseRecord } from '../sessions/session-lease.js';
export {
  acquireFrom,
  assertAppendLease,
  assertLeaseOwner,
  assertLeaseTtl,
  assertSessionLease,
  isCurrentLease,
  liveHolderOf,
  renewFrom,
} from '../sessions/session-lease.js';
export { holderState, isHolderGone, thisProcess } from '../sessions/holder-process.js';
export type { HolderProcess } from '../sessions/holder-process.js';

// The store contract's inputs (moved from the root in 0.2)
export type { CreateSessionInput, ListSessionsInput, AppendOptions } from '../sessions/session-store.js';
export type { SessionLease, LeaseOptions, LeaseHolder } from '../sessions/session-lease.js';
export type { BlobLimits } from '../sessions/blobs/blob-limits.js';
export type { EventActions } from '../events/agent-event.js';
export { MAX_ID_LENGTH } from '../sessions/session-key-rules.js';
