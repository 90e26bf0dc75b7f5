import { createHash } from 'node:crypto';
import type pg from 'pg';
import { ConcurrentUpdateError, SessionNotFoundError, type AgentEvent, type SessionKey } from '@replan/core';
import { SESSION_SCHEMA_VERSION, splitStateDelta, type NewBlob, type SessionLease } from '@replan/core/store-kit';
import { blobColumns } from './blob-queries.js';
import { LEASE_COLUMNS, leaseGuard, lostLease } from './lease-queries.js';
import type { Tables } from './sql-names.js';

/** A prepared statement's name, unique per schema (a name's text must not differ between schemas). */
const statementName = (tables: Tables, what: string) =>
  `replan-${what}-${createHash('sha256').update(tables.sessions).digest('hex').slice(0, 16)}`;

/** One caller's `appendEvents`, waiting to be committed with others. */
export interface PendingAppend {
  readonly key: SessionKey;
  /** At least one event, already prepared for storage. */
  readonly events: readonly AgentEvent[];
  readonly expectedVersion: number;
  /** The writer's lease: its token is checked in the same UPDATE as the version. */
  readonly lease?: SessionLease;
  /** Blobs the events name that the session does not hold yet: written by the same statement. */
  readonly blobs?: readonly NewBlob[];
}

/** How one append of a batch ended: its new version, or why it was refused (nothing of it written). */
export type AppendOutcome = { readonly version: number } | { readonly error: Error };

/** One `app:` or `user:` key an append sets: the last value its events give it. */
interface SharedWrite {
  readonly ord: number;
  readonly key: string;
  readonly value: string;
}

/** The `app:` and `user:` keys each append sets (later events of an append winning), tagged with the append's place. */
function sharedWrites(appends: readonly PendingAppend[]): { app: SharedWrite[]; user: SharedWrite[] } {
  const app: SharedWrite[] = [];
  const user: SharedWrite[] = [];
  appends.forEach((a, ord) => {
    const appValues: Record<string, unknown> = {};
    const userValues: Record<string, unknown> = {};
    for (const e of a.events) {
      const scoped = splitStateDelta(e.actions?.stateDelta);
      Object.assign(appValues, scoped.app);
      Object.assign(userValues, scoped.user);
    }
    for (const [key, value] of Object.entries(appValues)) app.push({ ord, key, value: JSON.stringify(value) ?? 'null' });
    for (const [key, value] of Object.entries(userValues)) user.push({ ord, key, value: JSON.stringify(value) ?? 'null' });
  });
  return { app, user };
}

/**
 * Appends a batch of appends (at most one per session) in ONE statement, so it holds row locks only
 * while that statement runs — never across a round trip to this process, which may stall. Each
 * session's version is bumped only if it still equals that append's `expectedVersion` and its
 * lease is current (the row lock makes a concurrent writer wait, then fail the check); only the
 * events and `app:`/`user:` keys of the appends that passed are written, a key set by several of
 * them taking the value of the latest in the batch. Shared rows are written in key order, so two
 * statements lock them in the same order. Returns each append's outcome in order: one session's
 * conflict fails only its own append.
 */
export async function appendBatch(
  client: pg.PoolClient,
  tables: Tables,
  appends: readonly PendingAppend[],
  notify = false,
): Promise<AppendOutcome[]> {
  const ords = appends.map((_, i) => i);
  const events = appends.flatMap((a, ord) => a.events.map((e, i) => ({ ord, seq: a.expectedVersion + i + 1, e })));
  const shared = sharedWrites(appends);
  const blobs = appends.flatMap((a, ord) => (a.blobs ?? []).map((b) => ({ ord, b })));
  const { rows } = await client.query<{ ord: number }>({
    // Named: parsed and planned once per connection, not for every batch.
    name: statementName(tables, notify ? 'append-batch-notify' : 'append-batch'),
    text: `WITH input AS (
       SELECT * FROM unnest($1::int[], $2::text[], $3::text[], $4::text[], $5::int[], $6::int[], $13::int[]) AS t(ord, app_name, user_id, id, expected, n, lease_token)
     ), bumped AS (
       UPDATE ${tables.sessions} AS s SET version = s.version + i.n, updated_at = $7
       FROM input i
       WHERE s.app_name = i.app_name AND s.user_id = i.user_id AND s.id = i.id AND s.version = i.expected
         AND ${leaseGuard(tables, 'i')}
       RETURNING i.ord
     ), inserted AS (
       INSERT INTO ${tables.events} (app_name, user_id, session_id, seq, event_id, schema_version, event)
       SELECT i.app_name, i.user_id, i.id, e.seq, e.event_id, $8, e.event::json
       FROM unnest($9::int[], $10::int[], $11::text[], $12::text[]) AS e(ord, seq, event_id, event)
       JOIN bumped b ON b.ord = e.ord JOIN input i ON i.ord = e.ord
       RETURNING 1
     ), app_written AS (
       INSERT INTO ${tables.appState} AS st (app_name, key, schema_version, value, updated_at)
       SELECT DISTINCT ON (i.app_name, w.key) i.app_name, w.key, $8, w.value::json, $7
       FROM unnest($14::int[], $15::text[], $16::text[]) AS w(ord, key, value)
       JOIN bumped b ON b.ord = w.ord JOIN input i ON i.ord = w.ord
       ORDER BY i.app_name, w.key, w.ord DESC
       ON CONFLICT (app_name, key) DO UPDATE
       SET value = EXCLUDED.value, schema_version = EXCLUDED.schema_version, updated_at = EXCLUDED.updated_at
       RETURNING 1
     ), user_written AS (
       INSERT INTO ${tables.userState} AS st (app_name, user_id, key, schema_version, value, updated_at)
       SELECT DISTINCT ON (i.app_name, i.user_id, w.key) i.app_name, i.user_id, w.key, $8, w.value::json, $7
       FROM unnest($17::int[], $18::text[], $19::text[]) AS w(ord, key, value)
       JOIN bumped b ON b.ord = w.ord JOIN input i ON i.ord = w.ord
       ORDER BY i.app_name, i.user_id, w.key, w.ord DESC
       ON CONFLICT (app_name, user_id, key) DO UPDATE
       SET value = EXCLUDED.value, schema_version = EXCLUDED.schema_version, updated_at = EXCLUDED.updated_at
       RETURNING 1
     ), blobs_written AS (
       INSERT INTO ${tables.blobs} (app_name, user_id, session_id, blob_id, media_type, size, bytes)
       SELECT i.app_name, i.user_id, i.id, b.id, b.media_type, b.size, b.bytes
       FROM unnest($20::int[], $21::text[], $22::text[], $23::int[], $24::bytea[]) AS b(ord, id, media_type, size, bytes)
       JOIN bumped x ON x.ord = b.ord JOIN input i ON i.ord = b.ord
       ON CONFLICT DO NOTHING
       RETURNING 1
     )
     ${
       notify
         ? // Delivered at commit, to every LISTENer of the schema's change channel (watchSession).
           `SELECT b.ord, pg_notify('${tables.changeChannel}', json_build_array(i.app_name, i.user_id, i.id)::text)
            FROM bumped b JOIN input i ON i.ord = b.ord`
         : 'SELECT ord FROM bumped'
     }`,
    values: [
      ords,
      appends.map((a) => a.key.appName),
      appends.map((a) => a.key.userId),
      appends.map((a) => a.key.id),
      appends.map((a) => a.expectedVersion),
      appends.map((a) => a.events.length),
      Date.now(),
      SESSION_SCHEMA_VERSION,
      events.map((x) => x.ord),
      events.map((x) => x.seq),
      events.map((x) => x.e.id),
      events.map((x) => JSON.stringify(x.e)),
      appends.map((a) => a.lease?.token ?? null),
      shared.app.map((w) => w.ord),
      shared.app.map((w) => w.key),
      shared.app.map((w) => w.value),
      shared.user.map((w) => w.ord),
      shared.user.map((w) => w.key),
      shared.user.map((w) => w.value),
      blobs.map((x) => x.ord),
      ...blobColumns(blobs.map((x) => x.b)),
    ],
  });
  const passed = new Set(rows.map((r) => r.ord));
  const refused = ords.filter((ord) => !passed.has(ord));
  const found = refused.length
    ? await currentVersions(
        client,
        tables,
        refused.map((ord) => appends[ord]!),
      )
    : [];
  return appends.map((a, ord): AppendOutcome => {
    if (passed.has(ord)) return { version: a.expectedVersion + a.events.length };
    const row = found[refused.indexOf(ord)];
    return {
      error:
        row === undefined
          ? new SessionNotFoundError(a.key.appName, a.key.userId, a.key.id)
          : (lostLease(a.key, a.lease, row) ?? new ConcurrentUpdateError(a.key.id, a.expectedVersion, row.version)),
    };
  });
}

interface CurrentRow {
  readonly ord: number;
  readonly version: number;
  readonly lease_owner: string | null;
  readonly lease_token: number;
}

/** The versions and leases now committed for `appends`' sessions (undefined: no such session), in order. */
async function currentVersions(
  client: pg.PoolClient,
  tables: Tables,
  appends: readonly PendingAppend[],
): Promise<(CurrentRow | undefined)[]> {
  const { rows } = await client.query<CurrentRow>(
    `SELECT i.ord, s.version, ${LEASE_COLUMNS} FROM unnest($1::int[], $2::text[], $3::text[], $4::text[]) AS i(ord, app_name, user_id, id)
     JOIN ${tables.sessions} s ON s.app_name = i.app_name AND s.user_id = i.user_id AND s.id = i.id
     LEFT JOIN ${tables.leases} l ON l.app_name = s.app_name AND l.user_id = s.user_id AND l.session_id = s.id`,
    [appends.map((_, i) => i), appends.map((a) => a.key.appName), appends.map((a) => a.key.userId), appends.map((a) => a.key.id)],
  );
  const byOrd = new Map(rows.map((r) => [r.ord, r]));
  return appends.map((_, i) => byOrd.get(i));
}
