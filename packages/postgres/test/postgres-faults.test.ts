import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterEach, beforeEach, describe, expect } from 'vitest';
import { SessionStoreError } from '@replan/core';
import { MAX_ID_LENGTH } from '@replan/core/store-kit';
import { contractEvent } from '@replan/core/testing';
import { PostgresSessionStore } from '@replan/postgres';
import { eventTexts } from './support/event-texts.js';
import { useTestPostgres } from './support/use-test-postgres.js';

const db = useTestPostgres();
const it = db.it;
const key = (id: string) => ({ appName: 'app', userId: 'u1', id });

/** Errors that reached no handler: on the old code, a dropped checked-out client's `'error'` event. */
let uncaught: unknown[] = [];
const onUncaught = (error: unknown) => uncaught.push(error);
beforeEach(() => {
  uncaught = [];
  process.prependListener('uncaughtException', onUncaught);
});
afterEach(() => {
  process.removeListener('uncaughtException', onUncaught);
});

async function storeError(promise: Promise<unknown>): Promise<SessionStoreError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(SessionStoreError);
  return error as SessionStoreError;
}

/** Polls until `find` returns a value (at most ~10 s). */
async function waitFor<T>(find: () => Promise<T | undefined>): Promise<T> {
  for (let i = 0; i < 500; i++) {
    const found = await find();
    if (found !== undefined) return found;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error('timed out');
}

describe('PostgresSessionStore: a connection dropped while a client is checked out', () => {
  for (const owner of ['the store', 'the caller (no error handler on it)'] as const)
    it(`fails the call with a connection SessionStoreError, does not crash, and keeps working — pool owned by ${owner}`, async () => {
      const schema = db.freshSchema('drop');
      const userPool = owner === 'the store' ? undefined : new pg.Pool({ connectionString: db.connectionString, max: 2 });
      const store = userPool
        ? new PostgresSessionStore({ pool: userPool, schema })
        : new PostgresSessionStore({ connectionString: db.connectionString, schema, maxConnections: 2 });
      const blocker = new pg.Client(db.connectionString);
      await blocker.connect();
      // Watches from outside the blocker's transaction (which would see one frozen pg_stat_activity).
      const watcher = new pg.Client(db.connectionString);
      await watcher.connect();
      try {
        await store.create(key('s'), [contractEvent('first')]);
        // Hold the session row, so the append waits inside its statement until its backend is terminated.
        await blocker.query('BEGIN');
        await blocker.query(`SELECT 1 FROM "${schema}".replan_sessions WHERE id = 's' FOR UPDATE`);
        const append = store.appendEvents(key('s'), [contractEvent('lost')], { expectedVersion: 1 });
        const settled = append.catch(() => undefined);
        const pid = await waitFor(async () => {
          const { rows } = await watcher.query<{ pid: number }>(
            `SELECT pid FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND pid <> pg_backend_pid() AND query LIKE '%replan_sessions%'`,
          );
          return rows[0]?.pid;
        });
        await watcher.query('SELECT pg_terminate_backend($1)', [pid]);
        await settled;
        // Give a late 'error' event (socket end after the FATAL message) time to arrive.
        await new Promise((r) => setTimeout(r, 100));
        expect(uncaught).toEqual([]);
        const error = await storeError(append);
        expect(error.kind).toBe('connection');
        expect(error.message).toMatch(/lost or could not open its connection/);
        expect(error.message).toMatch(/Check the connection settings and that the database is up/);
        await blocker.query('ROLLBACK');
        // The same store works on: nothing of the failed append was written, so version 1 still holds.
        await expect(store.appendEvents(key('s'), [contractEvent('next')], { expectedVersion: 1 })).resolves.toEqual({ version: 2 });
        const texts = eventTexts(await store.get(key('s')));
        expect(texts).toEqual(['first', 'next']);
      } finally {
        await Promise.all([blocker.end(), watcher.end()]);
        await store.close();
        await userPool?.end();
      }
    });
});

/** Random letters: they do not compress, so a long id stays long in the index. */
const randomText = (length: number) => randomBytes(length).toString('base64').replace(/[+/=]/g, 'x').slice(0, length);
/** Random Hangul syllables: 3 bytes of UTF-8 per UTF-16 code unit, and incompressible. */
const randomHangul = (length: number) =>
  Array.from({ length }, () => String.fromCharCode(0xac00 + Math.floor(Math.random() * 11172))).join('');

describe('PostgresSessionStore: data PostgreSQL refuses is reported as data, not as the connection', () => {
  it('a 10,000-character id: the message is short and never holds the whole id', async () => {
    const store = new PostgresSessionStore({ connectionString: db.connectionString, schema: db.freshSchema('long') });
    try {
      const id = randomText(10_000);
      const error = (await store.create(key(id)).then(
        () => undefined,
        (e: unknown) => e,
      )) as Error;
      expect(error).toBeInstanceOf(Error);
      // Core may refuse the id before the store sees it (InvalidArgumentError); either way it is not the connection.
      if (error instanceof SessionStoreError) expect(error.kind).toBe('data');
      expect(error.message).not.toMatch(/connection/i);
      expect(error.message).not.toContain(id.slice(0, 200));
      expect(error.message.length).toBeLessThan(1_000);
    } finally {
      await store.close();
    }
  });

  it('ids of MAX_ID_LENGTH in 3-byte characters (the most UTF-8 valid ids can hold) fit the primary-key index', async () => {
    const store = new PostgresSessionStore({ connectionString: db.connectionString, schema: db.freshSchema('index') });
    try {
      const big = { appName: randomHangul(MAX_ID_LENGTH), userId: randomHangul(MAX_ID_LENGTH), id: randomHangul(MAX_ID_LENGTH) };
      await store.create(big, [contractEvent('first')]);
      await store.appendEvents(big, [contractEvent('second')], { expectedVersion: 1 });
      expect(eventTexts(await store.get(big))).toEqual(['first', 'second']);
      expect((await store.list({ appName: big.appName, userId: big.userId })).sessions.map((s) => s.id)).toEqual([big.id]);
    } finally {
      await store.close();
    }
  });

  it('a value too large for an index (an index a schema change added): kind data, says what is too large, never the connection', async () => {
    const schema = db.freshSchema('toolarge');
    const store = new PostgresSessionStore({ connectionString: db.connectionString, schema });
    const sql = new pg.Client(db.connectionString);
    await sql.connect();
    try {
      await store.create(key('s'));
      await sql.query(`CREATE INDEX ON "${schema}".replan_events (event_id)`);
      const eventId = randomText(5_000);
      const error = await storeError(store.appendEvents(key('s'), [{ ...contractEvent('x'), id: eventId }], { expectedVersion: 0 }));
      expect(error.kind).toBe('data');
      expect(error.message).toMatch(/54000/);
      expect(error.message).toMatch(/too large for PostgreSQL/);
      expect(error.message).not.toMatch(/Check the connection settings/);
      expect(error.message).not.toContain(eventId.slice(0, 200));
      await expect(store.appendEvents(key('s'), [contractEvent('fine')], { expectedVersion: 0 })).resolves.toEqual({ version: 1 });
    } finally {
      await sql.end();
      await store.close();
    }
  });

  it('a NUL in an event id fails only its own append, even when committed together with others', async () => {
    const store = new PostgresSessionStore({ connectionString: db.connectionString, schema: db.freshSchema('nul') });
    try {
      for (const id of ['a', 'b', 'c']) await store.create(key(id));
      const bad = { ...contractEvent('bad'), id: 'evil\u0000id' };
      const results = await Promise.allSettled([
        store.appendEvents(key('a'), [contractEvent('a1')], { expectedVersion: 0 }),
        store.appendEvents(key('b'), [bad], { expectedVersion: 0 }),
        store.appendEvents(key('c'), [contractEvent('c1')], { expectedVersion: 0 }),
      ]);
      expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
      const error = (results[1] as PromiseRejectedResult).reason as SessionStoreError;
      expect(error).toBeInstanceOf(SessionStoreError);
      expect(error.kind).toBe('data');
      expect(error.message).toMatch(/session "b"/);
      expect(error.message).toMatch(/NUL/);
      expect(error.message).toMatch(/Nothing was written/);
      expect(error.message).not.toMatch(/Check the connection settings/);
      expect((await store.get(key('b')))?.version).toBe(0);
      for (const id of ['a', 'c']) expect((await store.get(key(id)))?.version).toBe(1);
    } finally {
      await store.close();
    }
  });

  it('a constraint the schema adds (a malformed schema) is a data fault too, naming the SQLSTATE', async () => {
    const schema = db.freshSchema('check');
    const store = new PostgresSessionStore({ connectionString: db.connectionString, schema });
    const sql = new pg.Client(db.connectionString);
    await sql.connect();
    try {
      await store.create(key('s'));
      await sql.query(`ALTER TABLE "${schema}".replan_events ADD CHECK (length(event_id) < 40)`);
      const error = await storeError(store.appendEvents(key('s'), [{ ...contractEvent('x'), id: 'e'.repeat(50) }], { expectedVersion: 0 }));
      expect(error.kind).toBe('data');
      expect(error.message).toMatch(/23514/);
      expect(error.message).toMatch(/constraint/);
    } finally {
      await sql.end();
      await store.close();
    }
  });
});
