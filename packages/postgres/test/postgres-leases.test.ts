import pg from 'pg';
import { describe, expect } from 'vitest';
import { LeaseLostError, SessionBusyError } from '@replan/core';
import { contractEvent } from '@replan/core/testing';
import { MIGRATIONS, PostgresSessionStore } from '@replan/postgres';
import { useTestPostgres } from './support/use-test-postgres.js';

const db = useTestPostgres();
const it = db.it;
const key = (id: string) => ({ appName: 'app', userId: 'u1', id });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A store on a fresh schema, with a pool of our own for looking at (and tampering with) its rows. */
async function withStore(body: (store: PostgresSessionStore, sql: pg.Pool, schema: string) => Promise<void>): Promise<void> {
  const sql = new pg.Pool({ connectionString: db.connectionString, max: 4 });
  const schema = db.freshSchema('lease');
  const store = new PostgresSessionStore({ pool: sql, schema });
  try {
    await store.migrate();
    await body(store, sql, schema);
  } finally {
    await store.close();
    await sql.end();
  }
}

describe('PostgresSessionStore leases', () => {
  it("checks each append's token inside one group commit: a stale lease fails only its own append, writing none of it", () =>
    withStore(async (store) => {
      await store.create(key('zombie'), [contractEvent('z0')]);
      await store.create(key('holder'), [contractEvent('h0')]);
      const old = await store.acquireLease(key('zombie'), { owner: 'a', ttlMs: 30 });
      await sleep(80);
      await store.acquireLease(key('zombie'), { owner: 'b', ttlMs: 60_000 });
      const mine = await store.acquireLease(key('holder'), { owner: 'a', ttlMs: 60_000 });
      // Made in the same tick: one batch, one statement.
      const [refused, passed] = await Promise.allSettled([
        store.appendEvents(key('zombie'), [contractEvent('z1'), contractEvent('z2')], { expectedVersion: 1, lease: old }),
        store.appendEvents(key('holder'), [contractEvent('h1')], { expectedVersion: 1, lease: mine }),
      ]);
      expect(refused.status === 'rejected' && refused.reason).toBeInstanceOf(LeaseLostError);
      expect(refused.status === 'rejected' && (refused.reason as LeaseLostError).owner).toBe('b');
      expect(passed).toEqual({ status: 'fulfilled', value: { version: 2 } });
      expect((await store.get(key('zombie')))?.version).toBe(1);
      expect((await store.get(key('holder')))?.version).toBe(2);
    }));

  it("judges expiry by the database clock, not the caller's: a lease the database sees as expired is taken over", () =>
    withStore(async (store, sql, schema) => {
      await store.create(key('s'), [contractEvent('x')]);
      const held = await store.acquireLease(key('s'), { owner: 'a', ttlMs: 60_000 });
      expect(await store.acquireLease(key('s'), { owner: 'b', ttlMs: 60_000 }).catch((e: unknown) => e)).toBeInstanceOf(SessionBusyError);
      // The database's clock moves past the expiry while this process still reads it as a minute away.
      await sql.query(`UPDATE "${schema}".replan_sessions SET lease_expires_at = clock_timestamp() - interval '1 second' WHERE id = 's'`);
      expect(held.expiresAt).toBeGreaterThan(Date.now() + 50_000);
      const taken = await store.acquireLease(key('s'), { owner: 'b', ttlMs: 60_000 });
      expect(taken.token).toBe(held.token + 1);
      const { rows } = await sql.query(
        `SELECT floor(extract(epoch FROM lease_expires_at) * 1000)::float8 AS ms FROM "${schema}".replan_sessions WHERE id = 's'`,
      );
      expect(rows[0].ms).toBe(taken.expiresAt);
    }));

  it('adds the lease columns to a schema made before leases (migration 2), keeping its sessions', () =>
    withStore(async (store, sql, schema) => {
      await store.create(key('old'), [contractEvent('kept')]);
      // Back to the layout of migration 1, as an older replan left it.
      await sql.query(
        `ALTER TABLE "${schema}".replan_sessions DROP COLUMN lease_owner, DROP COLUMN lease_token, DROP COLUMN lease_expires_at;
         DELETE FROM "${schema}".replan_migrations WHERE version = 2`,
      );
      const upgraded = new PostgresSessionStore({ pool: sql, schema });
      await upgraded.migrate();
      const { rows } = await sql.query(`SELECT version, name FROM "${schema}".replan_migrations ORDER BY version`);
      expect(rows.map((r) => r.version)).toEqual(MIGRATIONS.map((m) => m.version)); // 2 re-applied, the rest kept
      expect((await upgraded.get(key('old')))?.version).toBe(1);
      const lease = await upgraded.acquireLease(key('old'), { owner: 'a', ttlMs: 1_000 });
      expect(lease.token).toBe(1);
      expect((await upgraded.appendEvents(key('old'), [contractEvent('new')], { expectedVersion: 1, lease })).version).toBe(2);
      await upgraded.close();
    }));
});
