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

/** The saved schema version of session records; stores refuse records from other versions. */
export const SESSION_SCHEMA_VERSION = 1;
