import { createHash } from 'node:crypto';
import type pg from 'pg';
import { ConcurrentUpdateError, SessionNotFoundError, type AgentEvent, type SessionKey, type SessionLease } from '@replan/core';
import { SESSION_SCHEMA_VERSION, splitStateDelta } from '@replan/core/store-kit';
import { upsertScope } from './event-writer.js';
import { leaseGuard, lostLease } from './lease-queries.js';
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
}

/** How one append of a batch ended: its new version, or why it was refused (nothing of it written). */
export type AppendOutcome = { readonly version: number } | { readonly error: Error };

/** True when an append of the batch carries `app:` or `user:` state, which needs upserts after the events. */
export const writesSharedState = (appends: readonly PendingAppend[]): boolean =>
  appends.some((a) =>
    a.events.some((e) => {
      const scoped = splitStateDelta(e.actions?.stateDelta);
      return Object.keys(scoped.app).length > 0 || Object.keys(scoped.user).length > 0;
    }),
  );

/**
 * Appends a batch of appends (at most one per session) in one statement: each session's version
 * is bumped only if it still equals that append's `expectedVersion` (the row lock makes a
 * concurrent writer wait, then fail the check), and only the events of the appends that passed
 * are inserted. Returns each append's outcome in order: one session's conflict fails only its own
 * append. Shared (`app:`/`user:`) state is upserted for the appends that passed, in batch order,
 * so the caller must run this in a transaction when `writesSharedState(appends)`.
 */
export async function appendBatch(client: pg.PoolClient, tables: Tables, appends: readonly PendingAppend[]): Promise<AppendOutcome[]> {
  const ords = appends.map((_, i) => i);
  const events = appends.flatMap((a, ord) => a.events.map((e, i) => ({ ord, seq: a.expectedVersion + i + 1, e })));
  const { rows } = await client.query<{ ord: number }>({
    // Named: parsed and planned once per connection, not for every batch.
    name: statementName(tables, 'append-batch'),
    text: `WITH input AS (
       SELECT * FROM unnest($1::int[], $2::text[], $3::text[], $4::text[], $5::int[], $6::int[], $13::int[]) AS t(ord, app_name, user_id, id, expected, n, lease_token)
     ), bumped AS (
       UPDATE ${tables.sessions} AS s SET version = s.version + i.n, updated_at = $7
       FROM input i
       WHERE s.app_name = i.app_name AND s.user_id = i.user_id AND s.id = i.id AND s.version = i.expected
         AND ${leaseGuard('s', 'i.lease_token')}
       RETURNING i.ord
     ), inserted AS (
       INSERT INTO ${tables.events} (app_name, user_id, session_id, seq, event_id, schema_version, event)
       SELECT i.app_name, i.user_id, i.id, e.seq, e.event_id, $8, e.event::json
       FROM unnest($9::int[], $10::int[], $11::text[], $12::text[]) AS e(ord, seq, event_id, event)
       JOIN bumped b ON b.ord = e.ord JOIN input i ON i.ord = e.ord
       RETURNING 1
     )
     SELECT ord FROM bumped`,
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
    ],
  });
  const passed = new Set(rows.map((r) => r.ord));
  await upsertSharedState(
    client,
    tables,
    appends.filter((_, ord) => passed.has(ord)),
  );
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
    `SELECT i.ord, s.version, s.lease_owner, s.lease_token FROM unnest($1::int[], $2::text[], $3::text[], $4::text[]) AS i(ord, app_name, user_id, id)
     JOIN ${tables.sessions} s ON s.app_name = i.app_name AND s.user_id = i.user_id AND s.id = i.id`,
    [appends.map((_, i) => i), appends.map((a) => a.key.appName), appends.map((a) => a.key.userId), appends.map((a) => a.key.id)],
  );
  const byOrd = new Map(rows.map((r) => [r.ord, r]));
  return appends.map((_, i) => byOrd.get(i));
}

/**
 * Upserts the `app:`/`user:` keys the appends set, later appends winning, one owner at a time in
 * sorted order (with sorted keys inside): every transaction locks shared rows in the same order.
 */
async function upsertSharedState(client: pg.PoolClient, tables: Tables, appends: readonly PendingAppend[]): Promise<void> {
  const app = new Map<string, Record<string, unknown>>();
  const user = new Map<string, { appName: string; userId: string; values: Record<string, unknown> }>();
  for (const a of appends)
    for (const e of a.events) {
      const scoped = splitStateDelta(e.actions?.stateDelta);
      if (Object.keys(scoped.app).length) app.set(a.key.appName, Object.assign(app.get(a.key.appName) ?? {}, scoped.app));
      if (Object.keys(scoped.user).length) {
        const owner = JSON.stringify([a.key.appName, a.key.userId]);
        const entry = user.get(owner) ?? { appName: a.key.appName, userId: a.key.userId, values: {} };
        Object.assign(entry.values, scoped.user);
        user.set(owner, entry);
      }
    }
  for (const appName of [...app.keys()].sort()) await upsertScope(client, tables.appState, ['app_name'], [appName], app.get(appName)!);
  for (const owner of [...user.keys()].sort()) {
    const { appName, userId, values } = user.get(owner)!;
    await upsertScope(client, tables.userState, ['app_name', 'user_id'], [appName, userId], values);
  }
}
