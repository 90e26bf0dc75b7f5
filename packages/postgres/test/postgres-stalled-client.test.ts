import pg from 'pg';
import { describe, expect } from 'vitest';
import { z } from 'zod';
import { LeaseLostError, ReActAgent, Runner, SessionStoreError, tool } from '@replan/core';
import { ScriptedModel, callTools, contractEvent } from '@replan/core/testing';
import { PostgresSessionStore } from '@replan/postgres';
import { lockWaiters } from './support/lock-waiters.js';
import { useTestPostgres } from './support/use-test-postgres.js';

const db = useTestPostgres();
const it = db.it;
const key = (id: string) => ({ appName: 'app', userId: 'u1', id });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** `promise`'s outcome, or 'still waiting' when it has not settled after `ms` (a bound far above the expected wait, never asserted as a time). */
async function within<T>(promise: Promise<T>, ms: number): Promise<{ value: T } | { error: unknown } | 'still waiting'> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<'still waiting'>((resolve) => (timer = setTimeout(() => resolve('still waiting'), ms)));
  try {
    return await Promise.race([
      promise.then(
        (value) => ({ value }),
        (error: unknown) => ({ error }),
      ),
      late,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * A stalled worker: a connection of its own that began an append's transaction on `session` —
 * the session row bumped, an event inserted, an `app:` and a `user:` key written — and then stopped
 * just before COMMIT, holding all those row locks.
 */
async function stalledWorker(schema: string, session: string): Promise<pg.Client> {
  const raw = new pg.Client({ connectionString: db.connectionString });
  await raw.connect();
  const s = `"${schema}"`;
  await raw.query('BEGIN');
  await raw.query(`UPDATE ${s}.replan_sessions SET version = version + 1 WHERE app_name = 'app' AND user_id = 'u1' AND id = $1`, [session]);
  await raw.query(
    `INSERT INTO ${s}.replan_events (app_name, user_id, session_id, seq, event_id, schema_version, event)
     VALUES ('app', 'u1', $1, 2, 'stalled-event', 1, '{}')`,
    [session],
  );
  await raw.query(
    `INSERT INTO ${s}.replan_app_state (app_name, key, schema_version, value, updated_at) VALUES ('app', 'app:stalled', 1, '1', 0)
     ON CONFLICT (app_name, key) DO UPDATE SET value = EXCLUDED.value`,
  );
  await raw.query(
    `INSERT INTO ${s}.replan_user_state (app_name, user_id, key, schema_version, value, updated_at) VALUES ('app', 'u1', 'user:stalled', 1, '1', 0)
     ON CONFLICT (app_name, user_id, key) DO UPDATE SET value = EXCLUDED.value`,
  );
  return raw;
}

/** A run on `store` that calls its tool `calls` times, each call writing an `app:` and a `user:` key, under a short lease (renewed several times). */
function runner(store: PostgresSessionStore, owner: string, calls: number): Runner {
  const work = tool({
    name: 'work',
    description: 'does a unit of work',
    parameters: z.object({ i: z.number() }),
    execute: ({ i }, ctx) => {
      ctx.state.set(`app:last_${owner}`, i);
      ctx.state.set(`user:last_${owner}`, i);
      return `done ${i}`;
    },
  });
  const model = new ScriptedModel({
    latencyMs: 30,
    respond: (request) => {
      const done = request.messages.filter((m) => m.role === 'tool').length;
      return done < calls ? callTools({ name: 'work', args: { i: done }, id: `c${done}` }) : `all done (${owner})`;
    },
  });
  return new Runner({
    agent: new ReActAgent({ name: 'worker', model, tools: [work], maxIterations: 50 }),
    appName: 'app',
    sessionStore: store,
    owner,
    leaseMs: 300,
  });
}

describe('PostgresSessionStore with a stalled client holding row locks', () => {
  it('other runs complete, the stalled session is taken over, and a write that waits too long fails having written nothing', async () => {
    const schema = db.freshSchema('stall');
    const sql = new pg.Pool({ connectionString: db.connectionString, max: 4 });
    const store = new PostgresSessionStore({ connectionString: db.connectionString, schema, lockTimeoutMs: 1_000 });
    let raw: pg.Client | undefined;
    try {
      await store.create(key('stalled'), [contractEvent('input')]);
      const stalledLease = await store.acquireLease(key('stalled'), { owner: 'stalled-worker', ttlMs: 200 });
      raw = await stalledWorker(schema, 'stalled');
      await sleep(400); // the stalled worker's lease expires: nobody renews it

      // Two runs on other sessions, on a store whose connections are not the stalled one.
      const one = runner(store, 'one', 6).run({ userId: 'u1', sessionId: 'one', input: 'go' }).result();
      const two = runner(store, 'two', 6).run({ userId: 'u1', sessionId: 'two', input: 'go' }).result();
      // Meanwhile another worker takes over the stalled worker's session.
      const takeover = await within(store.acquireLease(key('stalled'), { owner: 'rescuer', ttlMs: 60_000 }), 15_000);
      expect(takeover).toMatchObject({ value: { owner: 'rescuer', token: stalledLease.token + 1 } });
      expect((await store.leaseHolder(key('stalled')))?.owner).toBe('rescuer');
      // The stalled worker's own lease is gone: its renewal says so at once instead of waiting.
      const renewal = await within(store.renewLease(key('stalled'), stalledLease, 60_000), 15_000);
      expect(renewal !== 'still waiting' && 'error' in renewal && renewal.error).toBeInstanceOf(LeaseLostError);

      for (const [result, owner] of [
        [await one, 'one'],
        [await two, 'two'],
      ] as const) {
        expect(result.status).toBe('completed');
        expect(result.output).toBe(`all done (${owner})`);
      }
      const state = (await store.get(key('one')))!.state;
      expect(state).toMatchObject({ 'app:last_one': 5, 'user:last_one': 5, 'app:last_two': 5, 'user:last_two': 5 });

      // The rescuer's own append waits for the stalled worker's row lock: it fails after lockTimeoutMs, rolled back.
      const rescuerLease = (takeover as { value: Awaited<ReturnType<PostgresSessionStore['acquireLease']>> }).value;
      const blocked = store.appendEvents(key('stalled'), [contractEvent('rescued')], { expectedVersion: 1, lease: rescuerLease });
      await lockWaiters(sql);
      // While that append is in flight (holding its lease row FOR KEY SHARE), the rescuer still renews at once.
      const renewed = await within(store.renewLease(key('stalled'), rescuerLease, 60_000), 15_000);
      expect(renewed).toMatchObject({ value: { token: rescuerLease.token } });
      const refused = await within(blocked, 15_000);
      const error = refused !== 'still waiting' && 'error' in refused ? refused.error : refused;
      expect(error).toBeInstanceOf(SessionStoreError);
      expect((error as Error).message).toMatch(/lock/);
      expect((error as Error).message).toMatch(/nothing was written/);

      await raw.query('ROLLBACK');
      const after = (await store.get(key('stalled')))!;
      expect(after.version).toBe(1);
      expect(after.events.map((e) => e.id)).not.toContain('rescued');
      expect(after.state['app:stalled']).toBeUndefined();
      // Once the stalled transaction is gone, the rescuer writes with its lease.
      expect(
        (await store.appendEvents(key('stalled'), [contractEvent('rescued')], { expectedVersion: 1, lease: rescuerLease })).version,
      ).toBe(2);
    } finally {
      await raw?.end().catch(() => undefined);
      await store.close();
      await sql.end();
    }
  });

  it('ends a connection of the store left idle inside a transaction (idleInTransactionTimeoutMs), releasing its locks', async () => {
    const schema = db.freshSchema('idle');
    const pool = new pg.Pool({ connectionString: db.connectionString, max: 1 });
    pool.on('error', () => undefined);
    const store = new PostgresSessionStore({ pool, schema, idleInTransactionTimeoutMs: 300, lockTimeoutMs: 0 });
    try {
      await store.create(key('s'), [contractEvent('input')]);
      // The store set its bounds on its connection: a transaction left open on it is ended by the server.
      const client = await pool.connect();
      client.on('error', () => undefined);
      const { rows } = await client.query(
        `SELECT current_setting('idle_in_transaction_session_timeout') AS idle, current_setting('lock_timeout') AS lock`,
      );
      expect(rows[0]).toEqual({ idle: '300ms', lock: '0' });
      await client.query('BEGIN');
      await client.query(`UPDATE "${schema}".replan_sessions SET version = version WHERE id = 's'`);
      await sleep(600);
      expect(
        await client.query('COMMIT').then(
          () => 'committed',
          (e: Error) => e.message,
        ),
      ).toMatch(/terminat|idle-in-transaction|Connection/i);
      client.release(true);
      // The lock is gone: an append goes through.
      expect((await store.appendEvents(key('s'), [contractEvent('next')], { expectedVersion: 1 })).version).toBe(2);
    } finally {
      await store.close();
      await pool.end();
    }
  });
});
