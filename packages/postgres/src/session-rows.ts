import { SessionCorruptError, type AgentEvent, type Session, type SessionKey } from '@replan/core';
import { assertSchemaVersion, decodeStoredEvent, foldSessionState } from '@replan/core/store-kit';

/** A `replan_sessions` row as read by `get`. */
export interface SessionRow {
  readonly schema_version: number;
  readonly state: unknown;
  readonly version: number;
}

/** A `replan_events` row. */
export interface EventRow {
  readonly seq: number;
  readonly event_id: string;
  readonly schema_version: number;
  readonly event: unknown;
}

/** A row of `replan_app_state` or `replan_user_state`, tagged with its scope. */
export interface ScopeRow {
  readonly scope: 'app' | 'user';
  readonly key: string;
  readonly schema_version: number;
  readonly value: unknown;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Builds a session from its rows, validating everything: schema versions, every event against
 * the event schema, and that the events are exactly 1..version. Anything off fails with
 * `SessionCorruptError` naming the session and the event.
 */
export function sessionFromRows(key: SessionKey, session: SessionRow, events: EventRow[], scopes: ScopeRow[]): Session {
  assertSchemaVersion(key.id, 'the session row', session.schema_version);
  if (!isObject(session.state)) throw new SessionCorruptError(key.id, 'its initial state is not a JSON object');
  const decoded: AgentEvent[] = [];
  for (const [i, row] of events.entries()) {
    if (row.seq !== i + 1)
      throw new SessionCorruptError(key.id, `event ${i + 1} is missing (the next stored event is number ${row.seq})`, row.event_id);
    decoded.push(decodeStoredEvent(key.id, { schemaVersion: row.schema_version, seq: row.seq, eventId: row.event_id, event: row.event }));
  }
  if (decoded.length !== session.version)
    throw new SessionCorruptError(key.id, `its version is ${session.version} but ${decoded.length} events are stored`);
  const app: Record<string, unknown> = {};
  const user: Record<string, unknown> = {};
  for (const row of scopes) {
    assertSchemaVersion(key.id, `the ${row.scope}: state key "${row.key}"`, row.schema_version);
    (row.scope === 'app' ? app : user)[row.key] = row.value;
  }
  const own = foldSessionState({ ...session.state }, decoded);
  return { ...key, state: { ...app, ...user, ...own }, events: decoded, version: decoded.length };
}
