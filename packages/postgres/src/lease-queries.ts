import type pg from 'pg';
import {
  LeaseLostError,
  SessionBusyError,
  SessionNotFoundError,
  type LeaseHolder,
  type LeaseOptions,
  type SessionKey,
  type SessionLease,
} from '@replan/core';
import { assertLeaseOwner, assertLeaseTtl, assertSessionKey, assertSessionLease } from '@replan/core/store-kit';
import type { Tables } from './sql-names.js';

/**
 * Session leases in PostgreSQL: three columns of `replan_sessions` (`lease_owner`, `lease_token`,
 * `lease_expires_at`; migration 2). Every decision is one statement on the session's row, so the
 * row lock orders concurrent acquirers, and expiry is judged by the database's clock
 * (`clock_timestamp()`), so workers whose clocks disagree still agree on who holds a lease.
 * A released lease keeps its token (`lease_owner` NULL): tokens are never reused.
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
const KEY = 'app_name = $1 AND user_id = $2 AND id = $3';

interface LeaseRow {
  readonly lease_owner: string | null;
  readonly lease_token: number;
  readonly expires_at: number | null;
  readonly live: boolean;
}

/** The session's lease columns, read without locking; `undefined` when there is no such session. */
async function currentLease(db: pg.Pool | pg.PoolClient, tables: Tables, key: SessionKey): Promise<LeaseRow | undefined> {
  const { rows } = await db.query<LeaseRow>(
    `SELECT lease_owner, lease_token, ${epochMs('lease_expires_at')} AS expires_at,
            lease_owner IS NOT NULL AND lease_expires_at > clock_timestamp() AS live
     FROM ${tables.sessions} WHERE ${KEY}`,
    [key.appName, key.userId, key.id],
  );
  return rows[0];
}

/** The live holder of the session's lease by the database's clock, or `undefined` (see `SessionStore.leaseHolder`). */
export async function leaseHolder(db: pg.Pool, tables: Tables, key: SessionKey): Promise<LeaseHolder | undefined> {
  const row = await currentLease(db, tables, key);
  return row?.live && row.lease_owner !== null && row.expires_at !== null
    ? { owner: row.lease_owner, expiresAt: row.expires_at }
    : undefined;
}

/**
 * Takes the lease: token + 1 when there is no holder, the holder's lease has expired by the
 * database's clock, or the holder is the same owner. Else `SessionBusyError` naming the holder.
 */
export async function acquireLease(db: pg.Pool, tables: Tables, key: SessionKey, options: LeaseOptions): Promise<SessionLease> {
  // A lease released or expired between our UPDATE and the read that explains it: try again.
  for (let attempt = 0; ; attempt++) {
    const { rows } = await db.query<{ lease_token: number; expires_at: number }>(
      `UPDATE ${tables.sessions}
       SET lease_owner = $4, lease_token = lease_token + 1, lease_expires_at = clock_timestamp() + $5 * interval '1 millisecond'
       WHERE ${KEY} AND (lease_owner IS NULL OR lease_owner = $4 OR lease_expires_at <= clock_timestamp())
       RETURNING lease_token, ${epochMs('lease_expires_at')} AS expires_at`,
      [key.appName, key.userId, key.id, options.owner, options.ttlMs],
    );
    const won = rows[0];
    if (won) return { owner: options.owner, token: won.lease_token, expiresAt: won.expires_at };
    const current = await currentLease(db, tables, key);
    if (!current) throw new SessionNotFoundError(key.appName, key.userId, key.id);
    if (current.live && current.lease_owner !== null && current.expires_at !== null)
      throw new SessionBusyError(key.id, { owner: current.lease_owner, expiresAt: current.expires_at });
    if (attempt >= 2) throw new SessionBusyError(key.id);
  }
}

/** Extends `lease` while its token is current and unreleased (expired or not); else `LeaseLostError`. */
export async function renewLease(db: pg.Pool, tables: Tables, key: SessionKey, lease: SessionLease, ttlMs: number): Promise<SessionLease> {
  const { rows } = await db.query<{ expires_at: number }>(
    `UPDATE ${tables.sessions} SET lease_expires_at = clock_timestamp() + $5 * interval '1 millisecond'
     WHERE ${KEY} AND lease_token = $4 AND lease_owner IS NOT NULL
     RETURNING ${epochMs('lease_expires_at')} AS expires_at`,
    [key.appName, key.userId, key.id, lease.token, ttlMs],
  );
  const renewed = rows[0];
  if (renewed) return { owner: lease.owner, token: lease.token, expiresAt: renewed.expires_at };
  throw await leaseLost(db, tables, key, lease);
}

/** Ends `lease` if it is current (the token stays, so it is never handed out again). */
export async function releaseLease(db: pg.Pool, tables: Tables, key: SessionKey, lease: SessionLease): Promise<void> {
  await db.query(
    `UPDATE ${tables.sessions} SET lease_owner = NULL, lease_expires_at = NULL
     WHERE ${KEY} AND lease_token = $4 AND lease_owner IS NOT NULL`,
    [key.appName, key.userId, key.id, lease.token],
  );
}

/**
 * The SQL condition an append adds to its version check (`s` is the session row, `token` an
 * expression for the append's lease token, NULL for an append without a lease): in the same
 * UPDATE, so the token is checked under the same row lock as the version.
 */
export const leaseGuard = (s: string, token: string) =>
  `(${token} IS NULL OR (${s}.lease_token = ${token} AND ${s}.lease_owner IS NOT NULL))`;

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
  return new LeaseLostError(key.id, lease.token, found.lease_token, found.lease_owner ?? undefined);
}

/** The `LeaseLostError` (or `SessionNotFoundError`) for a renewal that matched no row. */
async function leaseLost(db: pg.Pool, tables: Tables, key: SessionKey, lease: SessionLease): Promise<Error> {
  const current = await currentLease(db, tables, key);
  if (!current) return new SessionNotFoundError(key.appName, key.userId, key.id);
  return new LeaseLostError(key.id, lease.token, current.lease_token, current.lease_owner ?? undefined);
}
