import type pg from 'pg';
import { LeaseLostError, SessionBusyError, SessionNotFoundError, type SessionKey } from '@replan/core';
import {
  assertLeaseOwner,
  assertLeaseTtl,
  assertSessionKey,
  assertSessionLease,
  isHolderGone,
  thisProcess,
  type HolderProcess,
  type LeaseHolder,
  type LeaseOptions,
  type SessionLease,
} from '@replan/core/store-kit';
import type { Tables } from './sql-names.js';

/**
 * Session leases in PostgreSQL: one row per session in `replan_leases` (migration 4), holding the
 * last token, the holder (`owner`, `expires_at`) and the holder's process. Every decision is one
 * statement on that row, so its row lock orders concurrent acquirers, and expiry is judged by the
 * database's clock (`clock_timestamp()`), so workers whose clocks disagree still agree on who holds
 * a lease. A released lease keeps its token (`owner` NULL): tokens are never reused.
 *
 * Leases live outside the session row, so no lease statement waits for a lock an append (or a
 * stalled client) holds on the session. Appends lock the lease row FOR KEY SHARE for the length
 * of their statement (`leaseGuard`): a takeover, which writes a new token (a key column), waits
 * for the appends in flight; a renewal, which writes only `expires_at`, never does.
 */

/** Checks `acquireLease`'s arguments (`InvalidArgumentError` before any query). */
export function checkAcquire(key: SessionKey, options: LeaseOptions): void {
  assertSessionKey(key);
  assertLeaseOwner(options?.owner);
  assertLeaseTtl(options.ttlMs);
}

/** Checks `renewLease`'s arguments. */
export function checkRenew(key: SessionKey, lease: SessionLease, ttlMs: number): void {
  checkRelease(key, lease);
  assertLeaseTtl(ttlMs);
}

/** Checks `releaseLease`'s arguments. */
export function checkRelease(key: SessionKey, lease: SessionLease): void {
  assertSessionKey(key);
  assertSessionLease(lease);
}

/** A timestamptz as epoch ms (a float8, so pg hands JavaScript a number). */
const epochMs = (column: string) => `floor(extract(epoch FROM ${column}) * 1000)::float8`;
const KEY = 'app_name = $1 AND user_id = $2 AND session_id = $3';
/** PostgreSQL's foreign_key_violation: a lease row for a session that does not exist. */
const NO_SESSION = '23503';
/**
 * Concurrent first acquirers of a session race on two unique keys of `replan_leases`: `ON CONFLICT`
 * settles the race on its arbiter key, but one that meets the other key (the one with `token`) first
 * fails with a unique violation. The row then exists: read it as any lost race.
 */
const RACED_FIRST_INSERT = '23505';

interface LeaseRow {
  readonly owner: string | null;
  readonly token: number;
  readonly expires_at: number | null;
  readonly live: boolean;
  readonly holder_host: string | null;
  readonly holder_boot: string | null;
  readonly holder_pid_namespace: string | null;
  readonly holder_pid: number | null;
  readonly holder_start: string | null;
}

/** The session's lease row, read without locking; `undefined` when the session never had a lease. */
async function currentLease(db: pg.ClientBase, tables: Tables, key: SessionKey): Promise<LeaseRow | undefined> {
  const { rows } = await db.query<LeaseRow>(
    `SELECT owner, token, ${epochMs('expires_at')} AS expires_at, owner IS NOT NULL AND expires_at > clock_timestamp() AS live,
            holder_host, holder_boot, holder_pid_namespace, holder_pid, holder_start
     FROM ${tables.leases} WHERE ${KEY}`,
    [key.appName, key.userId, key.id],
  );
  return rows[0];
}

/** Whether the session exists (a session without a lease row has never been leased). */
async function sessionExists(db: pg.ClientBase, tables: Tables, key: SessionKey): Promise<boolean> {
  const { rowCount } = await db.query(`SELECT 1 FROM ${tables.sessions} WHERE app_name = $1 AND user_id = $2 AND id = $3`, [
    key.appName,
    key.userId,
    key.id,
  ]);
  return rowCount === 1;
}

/** The process recorded with a lease row, when there is one. */
function holderOf(row: LeaseRow): HolderProcess | undefined {
  if (row.holder_host === null || row.holder_pid === null) return undefined;
  return {
    host: row.holder_host,
    boot: row.holder_boot ?? undefined,
    pidNamespace: row.holder_pid_namespace ?? undefined,
    pid: row.holder_pid,
    start: row.holder_start ?? undefined,
  };
}

/** Whether a live lease row's holder process is known to be gone (died on this machine). */
async function holderGone(row: LeaseRow): Promise<boolean> {
  const holder = holderOf(row);
  return holder !== undefined && (await isHolderGone(holder));
}

/**
 * The live holder of the session's lease by the database's clock, or `undefined` (see
 * `SessionStore.leaseHolder`). A holder whose process died on this machine holds nothing.
 */
export async function leaseHolder(db: pg.ClientBase, tables: Tables, key: SessionKey): Promise<LeaseHolder | undefined> {
  const row = await currentLease(db, tables, key);
  if (!row?.live || row.owner === null || row.expires_at === null || (await holderGone(row))) return undefined;
  return { owner: row.owner, expiresAt: row.expires_at };
}

/**
 * Takes the lease: token + 1 when there is no holder, the holder's lease has expired by the
 * database's clock, the holder is the same owner, or the holder's process is gone (it ran on this
 * machine, in this pid namespace, and exited or its pid now runs another process: taken over at
 * once, without waiting for expiry). Else `SessionBusyError` naming the holder. The lease records
 * this process, so others on this machine can tell when it is gone.
 */
export async function acquireLease(db: pg.ClientBase, tables: Tables, key: SessionKey, options: LeaseOptions): Promise<SessionLease> {
  const me = thisProcess();
  /** The token of a holder this process judged gone: the takeover applies only while it is still that one. */
  let goneToken: number | null = null;
  // A lease released, expired or taken between our statement and the read that explains it: try again.
  for (let attempt = 0; ; attempt++) {
    let won: { token: number; expires_at: number } | undefined;
    try {
      const { rows } = await db.query<{ token: number; expires_at: number }>(
        `INSERT INTO ${tables.leases} AS l (app_name, user_id, session_id, token, owner, expires_at,
                holder_host, holder_boot, holder_pid_namespace, holder_pid, holder_start)
         VALUES ($1, $2, $3, 1, $4, clock_timestamp() + $5 * interval '1 millisecond', $6, $7, $8, $9, $10)
         ON CONFLICT (app_name, user_id, session_id) DO UPDATE
         SET token = l.token + 1, owner = EXCLUDED.owner, expires_at = EXCLUDED.expires_at,
             holder_host = EXCLUDED.holder_host, holder_boot = EXCLUDED.holder_boot,
             holder_pid_namespace = EXCLUDED.holder_pid_namespace, holder_pid = EXCLUDED.holder_pid, holder_start = EXCLUDED.holder_start
         WHERE l.owner IS NULL OR l.owner = EXCLUDED.owner OR l.expires_at <= clock_timestamp() OR l.token = $11
         RETURNING token, ${epochMs('expires_at')} AS expires_at`,
        [
          key.appName,
          key.userId,
          key.id,
          options.owner,
          options.ttlMs,
          me.host,
          me.boot ?? null,
          me.pidNamespace ?? null,
          me.pid,
          me.start ?? null,
          goneToken,
        ],
      );
      won = rows[0];
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      if (code === NO_SESSION) throw new SessionNotFoundError(key.appName, key.userId, key.id);
      if (code !== RACED_FIRST_INSERT) throw error;
    }
    if (won) return { owner: options.owner, token: won.token, expiresAt: won.expires_at };
    const current = await currentLease(db, tables, key);
    if (!current) {
      if (!(await sessionExists(db, tables, key))) throw new SessionNotFoundError(key.appName, key.userId, key.id);
    } else if (current.live && current.owner !== null && current.expires_at !== null) {
      if (await holderGone(current)) goneToken = current.token;
      else throw new SessionBusyError(key.id, { owner: current.owner, expiresAt: current.expires_at });
    }
    if (attempt >= 2) throw new SessionBusyError(key.id);
  }
}

/** Extends `lease` while its token is current and unreleased (expired or not); else `LeaseLostError`. */
export async function renewLease(
  db: pg.ClientBase,
  tables: Tables,
  key: SessionKey,
  lease: SessionLease,
  ttlMs: number,
): Promise<SessionLease> {
  const { rows } = await db.query<{ expires_at: number }>(
    `UPDATE ${tables.leases} SET expires_at = clock_timestamp() + $5 * interval '1 millisecond'
     WHERE ${KEY} AND token = $4 AND owner IS NOT NULL
     RETURNING ${epochMs('expires_at')} AS expires_at`,
    [key.appName, key.userId, key.id, lease.token, ttlMs],
  );
  const renewed = rows[0];
  if (renewed) return { owner: lease.owner, token: lease.token, expiresAt: renewed.expires_at };
  throw await leaseLost(db, tables, key, lease);
}

/** Ends `lease` if it is current (the token stays, so it is never handed out again). */
export async function releaseLease(db: pg.ClientBase, tables: Tables, key: SessionKey, lease: SessionLease): Promise<void> {
  await db.query(
    `UPDATE ${tables.leases} SET owner = NULL, expires_at = NULL,
       holder_host = NULL, holder_boot = NULL, holder_pid_namespace = NULL, holder_pid = NULL, holder_start = NULL
     WHERE ${KEY} AND token = $4 AND owner IS NOT NULL`,
    [key.appName, key.userId, key.id, lease.token],
  );
}

/**
 * The SQL condition an append adds to its version check (`i` is the append's input row with
 * `app_name`, `user_id`, `id` and `lease_token`, NULL for an append without a lease). It locks the
 * lease row FOR KEY SHARE until the append's statement ends: a takeover waits for it, so an append
 * that passed this check commits before any new holder's lease exists.
 */
export const leaseGuard = (tables: Tables, i: string) =>
  `(${i}.lease_token IS NULL OR EXISTS (
     SELECT 1 FROM ${tables.leases} l
     WHERE l.app_name = ${i}.app_name AND l.user_id = ${i}.user_id AND l.session_id = ${i}.id
       AND l.token = ${i}.lease_token AND l.owner IS NOT NULL
     FOR KEY SHARE))`;

/** The lease columns a refused append reads back (`l` is the lease table, LEFT JOINed to the session `s`). */
export const LEASE_COLUMNS = 'l.owner AS lease_owner, coalesce(l.token, 0) AS lease_token';

/**
 * Why an append with `lease` was refused: `LeaseLostError` when the lease is no longer current,
 * `undefined` when it still is (then the version was stale) or the session is gone.
 */
export function lostLease(
  key: SessionKey,
  lease: SessionLease | undefined,
  found: { readonly lease_owner: string | null; readonly lease_token: number } | undefined,
): LeaseLostError | undefined {
  if (!lease || !found) return undefined;
  if (found.lease_owner !== null && found.lease_token === lease.token) return undefined;
  return new LeaseLostError(key.id, lease.token, found.lease_token, found.lease_owner ?? undefined, { appendRefused: true });
}

/** The `LeaseLostError` (or `SessionNotFoundError`) for a renewal that matched no row. */
async function leaseLost(db: pg.ClientBase, tables: Tables, key: SessionKey, lease: SessionLease): Promise<Error> {
  const current = await currentLease(db, tables, key);
  if (!current && !(await sessionExists(db, tables, key))) return new SessionNotFoundError(key.appName, key.userId, key.id);
  return new LeaseLostError(key.id, lease.token, current?.token ?? 0, current?.owner ?? undefined);
}
