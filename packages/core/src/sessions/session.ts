import type { AgentEvent } from '../events/agent-event.js';

/** How a session is addressed: one user's session in one app. */
export interface SessionKey {
  readonly appName: string;
  readonly userId: string;
  readonly id: string;
}

/** A session: its event log and the state folded from it. `version` counts stored events. */
export interface Session extends SessionKey {
  /** Merged state: `app:` keys of the app, `user:` keys of the user, and this session's own keys. */
  readonly state: Readonly<Record<string, unknown>>;
  readonly events: readonly AgentEvent[];
  readonly version: number;
}

/** One row of `SessionStore.list`. */
export interface SessionSummary extends SessionKey {
  readonly version: number;
  readonly createdAt: number;
  readonly updatedAt: number;
}

/**
 * The schema version of the session records this replan writes. Version 2: image and file blocks
 * may name blobs (`{ blob, size, mediaType }`) kept apart from the log. Stores read every version
 * from `OLDEST_SESSION_SCHEMA_VERSION` up to this one (version 1 records hold no blobs and load
 * as they are) and refuse the others.
 */
export const SESSION_SCHEMA_VERSION = 2;

/** The oldest schema version of session records this replan still reads. */
export const OLDEST_SESSION_SCHEMA_VERSION = 1;

/** Whether a record of this schema version can be read (from `OLDEST_SESSION_SCHEMA_VERSION` to `SESSION_SCHEMA_VERSION`). */
export const isReadableSchemaVersion = (version: unknown): version is number =>
  typeof version === 'number' && Number.isInteger(version) && version >= OLDEST_SESSION_SCHEMA_VERSION && version <= SESSION_SCHEMA_VERSION;
