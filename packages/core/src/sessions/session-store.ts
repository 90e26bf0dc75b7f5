import type { AgentEvent } from '../events/agent-event.js';
import type { Session, SessionKey, SessionSummary } from './session.js';

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
  close?(): Promise<void>;
}
