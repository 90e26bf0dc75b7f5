import type pg from 'pg';
import { SessionExistsError, type AgentEvent, type SessionKey } from '@replan/core';
import {
  SESSION_SCHEMA_VERSION,
  blobsToStore,
  extractBlobs,
  resolveBlobLimits,
  splitStateDelta,
  type ResolvedBlobLimits,
} from '@replan/core/store-kit';
import { blobColumns } from './blob-queries.js';
import type { Tables } from './sql-names.js';

/** Keys and JSON texts of `values`, in key order (so every writer locks shared rows in the same order). */
function keyValues(values: Record<string, unknown>): [string[], string[]] {
  const keys = Object.keys(values).sort();
  return [keys, keys.map((k) => JSON.stringify(values[k]) ?? 'null')];
}

/**
 * Inserts a new session row with its first events and the `app:`/`user:` keys its initial state
 * and events set, in ONE statement (so its row locks last only while it runs): the store's
 * `create` runs it in its own transaction.
 * `state` is already JSON-checked; `events` are already stripped for storage. Their images and
 * files with inline data are stored as blobs in the same statement (within `limits`).
 * `SessionExistsError` when the session exists (then nothing is written).
 */
export async function insertSession(
  client: pg.PoolClient,
  tables: Tables,
  key: SessionKey,
  state: Readonly<Record<string, unknown>> | undefined,
  input: readonly AgentEvent[],
  limits: ResolvedBlobLimits = resolveBlobLimits('PostgresSessionStore', undefined),
): Promise<void> {
  const found = extractBlobs(key.id, input, limits);
  const { events } = found;
  // A new session holds no blobs yet: it can only name the ones it brings.
  const blobs = blobsToStore(key.id, found, new Map(), limits);
  const initial = splitStateDelta(state);
  const app: Record<string, unknown> = {};
  const user: Record<string, unknown> = {};
  for (const delta of [state, ...events.map((e) => e.actions?.stateDelta)]) {
    const scoped = splitStateDelta(delta);
    Object.assign(app, scoped.app);
    Object.assign(user, scoped.user);
  }
  const [appKeys, appValues] = keyValues(app);
  const [userKeys, userValues] = keyValues(user);
  const { rows } = await client.query<{ created: number }>(
    `WITH created AS (
       INSERT INTO ${tables.sessions} (app_name, user_id, id, schema_version, state, version, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5::json, $6, $7, $7) ON CONFLICT DO NOTHING
       RETURNING 1
     ), inserted AS (
       INSERT INTO ${tables.events} (app_name, user_id, session_id, seq, event_id, schema_version, event)
       SELECT $1, $2, $3, t.seq, t.event_id, $4, t.event::json
       FROM unnest($8::int[], $9::text[], $10::text[]) AS t(seq, event_id, event) WHERE EXISTS (SELECT 1 FROM created)
       RETURNING 1
     ), app_written AS (
       INSERT INTO ${tables.appState} (app_name, key, schema_version, value, updated_at)
       SELECT $1, w.key, $4, w.value::json, $7
       FROM unnest($11::text[], $12::text[]) WITH ORDINALITY AS w(key, value, n) WHERE EXISTS (SELECT 1 FROM created) ORDER BY w.n
       ON CONFLICT (app_name, key) DO UPDATE
       SET value = EXCLUDED.value, schema_version = EXCLUDED.schema_version, updated_at = EXCLUDED.updated_at
       RETURNING 1
     ), user_written AS (
       INSERT INTO ${tables.userState} (app_name, user_id, key, schema_version, value, updated_at)
       SELECT $1, $2, w.key, $4, w.value::json, $7
       FROM unnest($13::text[], $14::text[]) WITH ORDINALITY AS w(key, value, n) WHERE EXISTS (SELECT 1 FROM created) ORDER BY w.n
       ON CONFLICT (app_name, user_id, key) DO UPDATE
       SET value = EXCLUDED.value, schema_version = EXCLUDED.schema_version, updated_at = EXCLUDED.updated_at
       RETURNING 1
     ), blobs_written AS (
       INSERT INTO ${tables.blobs} (app_name, user_id, session_id, blob_id, media_type, size, bytes)
       SELECT $1, $2, $3, b.id, b.media_type, b.size, b.bytes
       FROM unnest($15::text[], $16::text[], $17::int[], $18::bytea[]) AS b(id, media_type, size, bytes) WHERE EXISTS (SELECT 1 FROM created)
       RETURNING 1
     )
     SELECT count(*)::int AS created FROM created`,
    [
      key.appName,
      key.userId,
      key.id,
      SESSION_SCHEMA_VERSION,
      JSON.stringify(initial.session),
      events.length,
      Date.now(),
      events.map((_, i) => i + 1),
      events.map((e) => e.id),
      events.map((e) => JSON.stringify(e)),
      appKeys,
      appValues,
      userKeys,
      userValues,
      ...blobColumns(blobs),
    ],
  );
  if (rows[0]?.created !== 1) throw new SessionExistsError(key.id);
}
