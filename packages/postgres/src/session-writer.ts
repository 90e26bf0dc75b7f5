import type pg from 'pg';
import { SessionExistsError, type AgentEvent, type SessionKey } from '@replan/core';
import { SESSION_SCHEMA_VERSION, splitStateDelta } from '@replan/core/store-kit';
import { writeEvents } from './event-writer.js';
import type { Tables } from './sql-names.js';

/**
 * Inserts a new session row with its first events, inside the caller's transaction: the store's
 * `create` and the run queue's `submit` (session and job in one transaction) share it.
 * `state` is already JSON-checked; `events` are already stripped for storage.
 */
export async function insertSession(
  client: pg.PoolClient,
  tables: Tables,
  key: SessionKey,
  state: Readonly<Record<string, unknown>> | undefined,
  events: readonly AgentEvent[],
): Promise<void> {
  const initial = splitStateDelta(state);
  const inserted = await client.query(
    `INSERT INTO ${tables.sessions} (app_name, user_id, id, schema_version, state, version, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5::json, $6, $7, $7) ON CONFLICT DO NOTHING`,
    [key.appName, key.userId, key.id, SESSION_SCHEMA_VERSION, JSON.stringify(initial.session), events.length, Date.now()],
  );
  if (inserted.rowCount === 0) throw new SessionExistsError(key.id);
  await writeEvents(client, tables, key, events, 0, [state]);
}
