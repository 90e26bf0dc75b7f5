import type { AgentEvent } from '../events/agent-event.js';
import type { Session, SessionKey, SessionSummary } from './session.js';
import type { LeaseHolder, LeaseOptions, SessionLease } from './session-lease.js';

export interface CreateSessionInput extends SessionKey {
  /** Initial state; `app:`/`user:` keys update those scopes. */
  readonly state?: Readonly<Record<string, unknown>>;
}

export interface ListSessionsInput {
  readonly appName: string;
  readonly userId: string;
  /** Page size (default 100). */
  readonly limit?: number;
  /** `nextCursor` of the previous page. */
  readonly cursor?: string | undefined;
}

/** A session `list` found but could not read (a damaged or foreign file); see `SessionPage.damaged`. */
export interface DamagedSession {
  /** The session id, when the damage left it readable. */
  readonly id?: string;
  /** Where the session is stored, relative to the store (for the file store: its file below `dir`). */
  readonly file: string;
  /** What is wrong (the `SessionCorruptError` message). */
  readonly error: string;
}

export interface SessionPage {
  readonly sessions: readonly SessionSummary[];
  readonly nextCursor?: string;
  /**
   * Sessions that could not be read, reported instead of failing the whole list. Stores that
   * cannot have damaged records (the in-memory store) never set it. Damaged sessions are not
   * counted in the page's `sessions` and do not move the cursor.
   */
  readonly damaged?: readonly DamagedSession[];
}

export interface AppendOptions {
  /** The version the caller last saw; a different stored version fails with `ConcurrentUpdateError`. */
  readonly expectedVersion: number;
  /**
   * The writer's lease: the append is refused with `LeaseLostError` (writing nothing) unless its
   * token is the session's current one, checked atomically with the version. A lease that
   * expired but was not taken over may still append. Without it, appends work as before.
   */
  readonly lease?: SessionLease;
}

/**
 * Where sessions live. Appends are atomic per call and optimistic. Every implementation passes
 * `runSessionStoreContract` from `@replan/core/testing`.
 */
export interface SessionStore {
  /** Creates a session with its first events in one atomic write; `SessionExistsError` if it exists. */
  create(session: CreateSessionInput, events?: readonly AgentEvent[]): Promise<Session>;
  /** The session, or `undefined` when there is none for this app, user and id. */
  get(key: SessionKey): Promise<Session | undefined>;
  list(input: ListSessionsInput): Promise<SessionPage>;
  /** Deletes the session and its events; deleting an absent session is not an error. */
  delete(key: SessionKey): Promise<void>;
  /**
   * Appends events atomically. Fails with `ConcurrentUpdateError` (writing nothing) when the
   * stored version differs from `expectedVersion`, and `SessionNotFoundError` when absent.
   * Returns the new version. `temp:` state keys are never stored.
   */
  appendEvents(key: SessionKey, events: readonly AgentEvent[], options: AppendOptions): Promise<{ version: number }>;
  /**
   * Takes the lease on a session: with no holder, an expired one, or one of the same owner, a
   * new lease whose token is the last one + 1; a live lease of another owner throws
   * `SessionBusyError` naming it. `SessionNotFoundError` when the session does not exist.
   * Optional so other stores keep compiling: the `Runner` then relies on versions alone.
   */
  acquireLease?(key: SessionKey, options: LeaseOptions): Promise<SessionLease>;
  /** Extends `lease` by `ttlMs` while it is current (even expired, unless taken over); else `LeaseLostError`. */
  renewLease?(key: SessionKey, lease: SessionLease, ttlMs: number): Promise<SessionLease>;
  /** Ends `lease` (its token is never reused); a no-op when it is not current. */
  releaseLease?(key: SessionKey, lease: SessionLease): Promise<void>;
  /**
   * Who holds the session's lease now, read without taking it: `undefined` when nobody does (never
   * leased, released, expired — or, in the file store, its process on this host is gone) or the
   * session does not exist. A UI tells with it a run still running from one that stopped without
   * ending (a crashed process): both look the same in the log.
   */
  leaseHolder?(key: SessionKey): Promise<LeaseHolder | undefined>;
  /**
   * The bytes of a blob of this session: an image or file block that was appended with inline
   * `data` is stored as `{ blob, size, mediaType }` (`blob` is the SHA-256 of the bytes, hex) and
   * its bytes are kept apart from the log, read back only through this method — a model call
   * does so just before it sends the request. A blob the session names but the store lacks fails
   * with `SessionCorruptError` naming it. Optional: a store without it keeps `data` inline.
   */
  readBlob?(key: SessionKey, id: string): Promise<Uint8Array>;
  close?(): Promise<void>;
}
