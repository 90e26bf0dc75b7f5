import type pg from 'pg';
import type { AgentEvent, SessionKey } from '@replan/core';
import { SESSION_SCHEMA_VERSION, splitStateDelta } from '@replan/core/store-kit';
import type { Tables } from './sql-names.js';

/** Inserts events numbered after `fromVersion` and upserts their (and `extraDeltas`') shared keys. */
export async function writeEvents(
  client: pg.PoolClient,
  tables: Tables,
  key: SessionKey,
  events: readonly AgentEvent[],
  fromVersion: number,
  extraDeltas: readonly (Readonly<Record<string, unknown>> | undefined)[],
): Promise<void> {
  if (events.length)
    await client.query(
      `INSERT INTO ${tables.events} (app_name, user_id, session_id, seq, event_id, schema_version, event)
       SELECT $1, $2, $3, t.seq, t.event_id, $4, t.event::json FROM unnest($5::int[], $6::text[], $7::text[]) AS t(seq, event_id, event)`,
      [
        key.appName,
        key.userId,
        key.id,
        SESSION_SCHEMA_VERSION,
        events.map((_, i) => fromVersion + i + 1),
        events.map((e) => e.id),
        events.map((e) => JSON.stringify(e)),
      ],
    );
  const app: Record<string, unknown> = {};
  const user: Record<string, unknown> = {};
  for (const delta of [...extraDeltas, ...events.map((e) => e.actions?.stateDelta)]) {
    const scoped = splitStateDelta(delta);
    Object.assign(app, scoped.app);
    Object.assign(user, scoped.user);
  }
  await upsertScope(client, tables.appState, ['app_name'], [key.appName], app);
  await upsertScope(client, tables.userState, ['app_name', 'user_id'], [key.appName, key.userId], user);
}

/** Upserts `values` as the keys of one owner (an app, or an app and user) in `table`. */
export async function upsertScope(
  client: pg.PoolClient,
  table: string,
  owner: readonly string[],
  ownerValues: readonly string[],
  values: Record<string, unknown>,
): Promise<void> {
  // Sorted keys: every transaction locks shared rows in the same order, so two never deadlock.
  const keys = Object.keys(values).sort();
  if (!keys.length) return;
  const n = owner.length;
  const ownerParams = owner.map((_, i) => `$${i + 1}`).join(', ');
  await client.query(
    `INSERT INTO ${table} (${owner.join(', ')}, key, schema_version, value, updated_at)
     SELECT ${ownerParams}, t.key, $${n + 1}, t.value::json, $${n + 2} FROM unnest($${n + 3}::text[], $${n + 4}::text[]) AS t(key, value)
     ON CONFLICT (${owner.join(', ')}, key) DO UPDATE
     SET value = EXCLUDED.value, schema_version = EXCLUDED.schema_version, updated_at = EXCLUDED.updated_at`,
    [...ownerValues, SESSION_SCHEMA_VERSION, Date.now(), keys, keys.map((k) => JSON.stringify(values[k]) ?? 'null')],
  );
}
