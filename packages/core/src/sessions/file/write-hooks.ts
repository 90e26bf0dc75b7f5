import type { AgentEvent } from '../../events/agent-event.js';
import type { SessionLease } from '../session-lease.js';

/** One caller's batch within a group commit, once it passed its version check. */
export interface AcceptedBatch {
  readonly events: readonly AgentEvent[];
  /** The version before the batch; its events get `fromVersion + 1` onwards. */
  readonly fromVersion: number;
}

/** What the store does around each group write (the `app:`/`user:` state protocol). */
export interface WriteHooks {
  /** Before the bytes are written; a failure fails the whole group, nothing written. */
  before(batches: readonly AcceptedBatch[]): Promise<void>;
  /** After the outcome is known (each batch committed or not); best effort. */
  after(batches: readonly AcceptedBatch[], committed: readonly boolean[]): Promise<void>;
  /** Throws `LeaseLostError` unless `lease` is current; called holding the lock, before the version check. */
  checkLease?(lease: SessionLease): Promise<void>;
}

/**
 * What an append writes beside its events (the store's blobs): run holding the lock, once the
 * append passed its lease and version checks, so a refused append writes none of it. A failure
 * refuses only that append. The returned undo takes it back when the events then fail before any
 * byte of them reached the log (the lock still held, so no other writer can have come to rely on it).
 */
export type PrepareAppend = () => Promise<(() => Promise<void>) | undefined>;
