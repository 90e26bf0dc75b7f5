import { spawn } from 'node:child_process';
import pg from 'pg';
import { describe, expect } from 'vitest';
import { LeaseLostError, SessionBusyError } from '@replan/core';
import { thisProcess } from '@replan/core/store-kit';
import { contractEvent } from '@replan/core/testing';
import { MIGRATIONS, PostgresSessionStore } from '@replan/postgres';
import { Tables } from '../src/sql-names.js';
import { lockWaiters } from './support/lock-waiters.js';
import { useTestPostgres } from './support/use-test-postgres.js';

const db = useTestPostgres();
const it = db.it;
const key = (id: string) => ({ appName: 'app', userId: 'u1', id });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The pid of a process that has exited. */
async function exitedPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '']);
  await new Promise((resolve) => child.on('exit', resolve));
  return child.pid!;
}

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
      await sql.query(`UPDATE "${schema}".replan_leases SET expires_at = clock_timestamp() - interval '1 second' WHERE session_id = 's'`);
      expect(held.expiresAt).toBeGreaterThan(Date.now() + 50_000);
      const taken = await store.acquireLease(key('s'), { owner: 'b', ttlMs: 60_000 });
      expect(taken.token).toBe(held.token + 1);
      const { rows } = await sql.query(
        `SELECT floor(extract(epoch FROM expires_at) * 1000)::float8 AS ms FROM "${schema}".replan_leases WHERE session_id = 's'`,
      );
      expect(rows[0].ms).toBe(taken.expiresAt);
    }));

  it('a takeover waits for an append in flight that passed the token check: that append commits first, later ones are refused', () =>
    withStore(async (store, sql, schema) => {
      await store.create(key('s'), [contractEvent('x')]);
      const held = await store.acquireLease(key('s'), { owner: 'a', ttlMs: 60_000 });
      // Another client holds the session row, so the append stays in flight after its token check.
      const raw = new pg.Client({ connectionString: db.connectionString });
      await raw.connect();
      try {
        await raw.query('BEGIN');
        await raw.query(`UPDATE "${schema}".replan_sessions SET version = version WHERE id = 's'`);
        const append = store.appendEvents(key('s'), [contractEvent('in-flight')], { expectedVersion: 1, lease: held });
        await lockWaiters(sql, 1);
        // The holder's lease runs out by the database's clock (a write of the expiry only: it does not wait for the append).
        await sql.query(`UPDATE "${schema}".replan_leases SET expires_at = clock_timestamp() - interval '1 second' WHERE session_id = 's'`);
        const takeover = store.acquireLease(key('s'), { owner: 'b', ttlMs: 60_000 });
        await lockWaiters(sql, 2);
        await raw.query('ROLLBACK');
        // The append under the old token commits although the takeover was already waiting: had the
        // takeover gone first, the append would be refused. (Which of the two replies this process
        // reads first says nothing: they come back on two connections.)
        expect(await append).toEqual({ version: 2 });
        expect((await takeover).token).toBe(held.token + 1);
        const late = await store
          .appendEvents(key('s'), [contractEvent('late')], { expectedVersion: 2, lease: held })
          .catch((e: unknown) => e);
        expect(late).toMatchObject({ name: 'LeaseLostError', appendRefused: true });
      } finally {
        await raw.end();
      }
    }));

  it('records the holder process with the lease; a holder whose process is gone on this machine is taken over at once, before expiry', () =>
    withStore(async (store, sql, schema) => {
      await store.create(key('s'), [contractEvent('x')]);
      const held = await store.acquireLease(key('s'), { owner: 'a', ttlMs: 60_000 });
      const me = thisProcess();
      const { rows } = await sql.query(
        `SELECT holder_host, holder_boot, holder_pid_namespace, holder_pid, holder_start FROM "${schema}".replan_leases WHERE session_id = 's'`,
      );
      expect(rows[0]).toEqual({
        holder_host: me.host,
        holder_boot: me.boot ?? null,
        holder_pid_namespace: me.pidNamespace ?? null,
        holder_pid: me.pid,
        holder_start: me.start ?? null,
      });
      // This process is alive: its lease holds.
      expect(await store.acquireLease(key('s'), { owner: 'b', ttlMs: 60_000 }).catch((e: unknown) => e)).toBeInstanceOf(SessionBusyError);
      // The same lease, as if a process of this machine that has since exited had taken it.
      await sql.query(`UPDATE "${schema}".replan_leases SET holder_pid = $1 WHERE session_id = 's'`, [await exitedPid()]);
      expect(await store.leaseHolder(key('s'))).toBeUndefined();
      const taken = await store.acquireLease(key('s'), { owner: 'b', ttlMs: 60_000 });
      expect(taken.token).toBe(held.token + 1);
      // The dead holder's appends are fenced.
      const late = await store
        .appendEvents(key('s'), [contractEvent('late')], { expectedVersion: 1, lease: held })
        .catch((e: unknown) => e);
      expect(late).toMatchObject({ name: 'LeaseLostError', appendRefused: true });
    }));

  it('takes over at once a holder whose pid now runs another process (its start time differs)', () =>
    withStore(async (store, sql, schema) => {
      await store.create(key('s'), [contractEvent('x')]);
      const held = await store.acquireLease(key('s'), { owner: 'a', ttlMs: 60_000 });
      const sleeper = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 20000)']);
      try {
        await sql.query(`UPDATE "${schema}".replan_leases SET holder_pid = $1, holder_start = '1' WHERE session_id = 's'`, [sleeper.pid]);
        expect((await store.acquireLease(key('s'), { owner: 'b', ttlMs: 60_000 })).token).toBe(held.token + 1);
      } finally {
        sleeper.kill('SIGKILL');
      }
    }));

  it('waits for the expiry of a holder it cannot judge: another host, another boot, another pid namespace', () =>
    withStore(async (store, sql, schema) => {
      await store.create(key('s'), [contractEvent('x')]);
      await store.acquireLease(key('s'), { owner: 'elsewhere', ttlMs: 60_000 });
      const gone = await exitedPid();
      for (const [column, value] of [
        ['holder_host', 'another-host'],
        ['holder_boot', 'another-boot'],
        ['holder_pid_namespace', 'pid:[1]'],
      ]) {
        await store.acquireLease(key('s'), { owner: 'elsewhere', ttlMs: 60_000 }); // same owner: re-records this process
        await sql.query(`UPDATE "${schema}".replan_leases SET holder_pid = $1, ${column} = $2 WHERE session_id = 's'`, [gone, value]);
        const busy = await store.acquireLease(key('s'), { owner: 'b', ttlMs: 60_000 }).catch((e: unknown) => e);
        expect(busy).toMatchObject({ name: 'SessionBusyError', owner: 'elsewhere' });
        expect((await store.leaseHolder(key('s')))?.owner).toBe('elsewhere');
      }
    }));

  it('migrates a schema made before leases (migration 1 only), keeping its sessions', () =>
    withOldSchema(1, async (sql, schema) => {
      await sql.query(
        `INSERT INTO "${schema}".replan_sessions (app_name, user_id, id, schema_version, state, version, created_at, updated_at)
         VALUES ('app', 'u1', 'old', 1, '{}', 0, 0, 0)`,
      );
      const upgraded = new PostgresSessionStore({ pool: sql, schema });
      await upgraded.migrate();
      const { rows } = await sql.query(`SELECT version FROM "${schema}".replan_migrations ORDER BY version`);
      expect(rows.map((r) => r.version)).toEqual(MIGRATIONS.map((m) => m.version));
      expect((await upgraded.get(key('old')))?.version).toBe(0);
      const lease = await upgraded.acquireLease(key('old'), { owner: 'a', ttlMs: 1_000 });
      expect(lease.token).toBe(1);
      expect((await upgraded.appendEvents(key('old'), [contractEvent('new')], { expectedVersion: 0, lease })).version).toBe(1);
      await upgraded.close();
    }));

  it("moves the leases of a schema with lease columns on the session row (migrations 1-3) into replan_leases, keeping each session's token and holder", () =>
    withOldSchema(3, async (sql, schema) => {
      await sql.query(
        `INSERT INTO "${schema}".replan_sessions (app_name, user_id, id, schema_version, state, version, created_at, updated_at, lease_owner, lease_token, lease_expires_at)
         VALUES ('app', 'u1', 'held', 1, '{}', 0, 0, 0, 'old-worker', 4, clock_timestamp() + interval '1 hour'),
                ('app', 'u1', 'released', 1, '{}', 0, 0, 0, NULL, 2, NULL),
                ('app', 'u1', 'never', 1, '{}', 0, 0, 0, NULL, 0, NULL)`,
      );
      const upgraded = new PostgresSessionStore({ pool: sql, schema });
      await upgraded.migrate();
      const columns = await sql.query(
        `SELECT column_name FROM information_schema.columns WHERE table_schema = $1 AND table_name = 'replan_sessions' AND column_name LIKE 'lease%'`,
        [schema],
      );
      expect(columns.rows).toEqual([]);
      // The live lease of the old worker still holds (it is on no machine this process can judge) and still fences.
      const busy = await upgraded.acquireLease(key('held'), { owner: 'new', ttlMs: 1_000 }).catch((e: unknown) => e);
      expect(busy).toMatchObject({ name: 'SessionBusyError', owner: 'old-worker' });
      expect((await upgraded.leaseHolder(key('held')))?.owner).toBe('old-worker');
      // Tokens go on from where they were: never reused.
      expect((await upgraded.acquireLease(key('released'), { owner: 'new', ttlMs: 1_000 })).token).toBe(3);
      expect((await upgraded.acquireLease(key('never'), { owner: 'new', ttlMs: 1_000 })).token).toBe(1);
      await upgraded.close();
    }));
});

/** A fresh schema migrated only up to `version`, as an older replan left it. */
async function withOldSchema(version: number, body: (sql: pg.Pool, schema: string) => Promise<void>): Promise<void> {
  const sql = new pg.Pool({ connectionString: db.connectionString, max: 4 });
  const schema = db.freshSchema('old');
  const tables = new Tables(schema);
  try {
    await sql.query(`CREATE SCHEMA "${schema}"`);
    await sql.query(
      `CREATE TABLE "${schema}".replan_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`,
    );
    for (const m of MIGRATIONS.filter((m) => m.version <= version)) {
      await sql.query(m.sql(tables));
      await sql.query(`INSERT INTO "${schema}".replan_migrations (version, name) VALUES ($1, $2)`, [m.version, m.name]);
    }
    await body(sql, schema);
  } finally {
    await sql.end();
  }
}

describe('PostgresSessionStore first leases', () => {
  it('many concurrent first acquirers of fresh sessions: one lease each, the rest SessionBusyError (never a unique violation)', async () => {
    const schema = db.freshSchema('race');
    const store = new PostgresSessionStore({ connectionString: db.connectionString, schema, leaseConnections: 8 });
    try {
      await store.migrate();
      for (let round = 0; round < 30; round++) {
        await store.create(key(`r${round}`), [contractEvent('hi')]);
        const outcomes = await Promise.allSettled(
          Array.from({ length: 8 }, (_, i) => store.acquireLease(key(`r${round}`), { owner: `racer-${i}`, ttlMs: 60_000 })),
        );
        expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
        const refused = outcomes.flatMap((o) => (o.status === 'rejected' ? [(o.reason as Error).name] : []));
        expect(refused).toEqual(Array.from({ length: 7 }, () => 'SessionBusyError'));
      }
    } finally {
      await store.close();
    }
  });
});
