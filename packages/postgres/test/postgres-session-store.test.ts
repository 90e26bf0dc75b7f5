import pg from 'pg';
import { describe, expect } from 'vitest';
import { SessionCorruptError, type SessionStore } from '@replan/core';
import { SESSION_SCHEMA_VERSION } from '@replan/core/store-kit';
import { contractEvent, runSessionStoreContract } from '@replan/core/testing';
import { PostgresSessionStore } from '@replan/postgres';
import { useTestPostgres } from './support/use-test-postgres.js';

const db = useTestPostgres();
const it = db.it;
const key = (id: string, userId = 'u1') => ({ appName: 'app', userId, id });

runSessionStoreContract({
  name: 'PostgresSessionStore',
  createStore: () => new PostgresSessionStore({ connectionString: db.connectionString, schema: db.freshSchema('contract') }),
  disposeStore: (store: SessionStore) => store.close?.(),
  test: { describe, it, expect },
  leases: true,
  blobs: true,
  createStoreWithLimits: (limits) =>
    new PostgresSessionStore({ connectionString: db.connectionString, schema: db.freshSchema('contract'), ...limits }),
});

/** A store on a fresh schema plus a raw pool on the same database, both closed after `body`. */
async function withStore(body: (store: PostgresSessionStore, sql: pg.Pool, schema: string) => Promise<void>): Promise<void> {
  const schema = db.freshSchema();
  const sql = new pg.Pool({ connectionString: db.connectionString, max: 2 });
  const store = new PostgresSessionStore({ pool: sql, schema });
  try {
    await body(store, sql, schema);
  } finally {
    await store.close();
    await sql.end();
  }
}

async function corruptError(promise: Promise<unknown>): Promise<SessionCorruptError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(SessionCorruptError);
  return error as SessionCorruptError;
}

describe('PostgresSessionStore', () => {
  it('stores one row per event with its schemaVersion, and app:/user: keys in their own tables', () =>
    withStore(async (store, sql, schema) => {
      const e = contractEvent('a', { actions: { stateDelta: { 'app:motd': 'hi', 'user:lang': 'fr', own: 1, 'temp:x': 2 } } });
      await store.create({ ...key('s'), state: { 'app:init': true, topic: 't' } }, [e]);
      const events = await sql.query(`SELECT seq, event_id, schema_version FROM "${schema}".replan_events`);
      expect(events.rows).toEqual([{ seq: 1, event_id: e.id, schema_version: SESSION_SCHEMA_VERSION }]);
      const app = await sql.query(`SELECT key, value FROM "${schema}".replan_app_state ORDER BY key`);
      expect(app.rows).toEqual([
        { key: 'app:init', value: true },
        { key: 'app:motd', value: 'hi' },
      ]);
      const user = await sql.query(`SELECT user_id, key, value FROM "${schema}".replan_user_state`);
      expect(user.rows).toEqual([{ user_id: 'u1', key: 'user:lang', value: 'fr' }]);
      const got = await store.get(key('s'));
      expect(got?.state).toEqual({ 'app:init': true, 'app:motd': 'hi', 'user:lang': 'fr', topic: 't', own: 1 });
    }));

  it('round-trips strings PostgreSQL jsonb would refuse (\\u0000) and odd ids', () =>
    withStore(async (store) => {
      const id = `'; DROP TABLE x; -- ✓ \u0000?`.replace('\u0000', '');
      const e = contractEvent('nul \u0000 byte', { meta: { big: 2 ** 53 - 1, nested: { a: [null, true] } } });
      await store.create(key(id, 'user "quoted"'), [e]);
      expect((await store.get(key(id, 'user "quoted"')))?.events[0]).toEqual(e);
    }));

  it('fails on a corrupt event row with SessionCorruptError naming the session and the event', () =>
    withStore(async (store, sql, schema) => {
      const [a, b] = [contractEvent('a'), contractEvent('b')];
      await store.create(key('bad'), [a, b]);
      await sql.query(`UPDATE "${schema}".replan_events SET event = '{"id": 5, "timestamp": "soon"}' WHERE seq = 2`);
      const error = await corruptError(store.get(key('bad')));
      expect(error.sessionId).toBe('bad');
      expect(error.eventId).toBe(b.id);
      expect(error.message).toMatch(/event 2 does not match the event schema/);
    }));

  it('refuses foreign schema versions on event, session and state rows', () =>
    withStore(async (store, sql, schema) => {
      const e = contractEvent('a');
      await store.create({ ...key('f'), state: { 'app:k': 1 } }, [e]);
      await sql.query(`UPDATE "${schema}".replan_events SET schema_version = 7`);
      const error = await corruptError(store.get(key('f')));
      expect(error.eventId).toBe(e.id);
      expect(error.message).toMatch(/schemaVersion 7/);
      await sql.query(`UPDATE "${schema}".replan_events SET schema_version = 1`);
      await sql.query(`UPDATE "${schema}".replan_sessions SET schema_version = 8`);
      expect((await corruptError(store.get(key('f')))).message).toMatch(/session row .*schemaVersion 8/);
      await sql.query(`UPDATE "${schema}".replan_sessions SET schema_version = 1`);
      await sql.query(`UPDATE "${schema}".replan_app_state SET schema_version = 9`);
      expect((await corruptError(store.get(key('f')))).message).toMatch(/app: state key "app:k".*schemaVersion 9/);
    }));

  it('fails when stored events and the session version disagree (a lost row)', () =>
    withStore(async (store, sql, schema) => {
      await store.create(key('gap'), [contractEvent('a'), contractEvent('b'), contractEvent('c')]);
      await sql.query(`DELETE FROM "${schema}".replan_events WHERE seq = 2`);
      expect((await corruptError(store.get(key('gap')))).message).toMatch(/event 2 is missing/);
      await sql.query(`DELETE FROM "${schema}".replan_events WHERE seq = 3`);
      expect((await corruptError(store.get(key('gap')))).message).toMatch(/version is 3 but 1 events/);
    }));

  it('reports an unknown session, and another user can neither read, append, list nor delete', () =>
    withStore(async (store) => {
      expect(await store.get(key('none'))).toBeUndefined();
      await expect(store.appendEvents(key('none'), [contractEvent('x')], { expectedVersion: 0 })).rejects.toMatchObject({
        name: 'SessionNotFoundError',
      });
      await expect(store.appendEvents(key('none'), [], { expectedVersion: 0 })).rejects.toMatchObject({ name: 'SessionNotFoundError' });
      await store.create(key('private', 'alice'), [contractEvent('secret')]);
      expect(await store.get(key('private', 'mallory'))).toBeUndefined();
      await expect(store.appendEvents(key('private', 'mallory'), [contractEvent('x')], { expectedVersion: 1 })).rejects.toMatchObject({
        name: 'SessionNotFoundError',
      });
      await store.delete(key('private', 'mallory'));
      expect((await store.list({ appName: 'app', userId: 'mallory' })).sessions).toEqual([]);
      expect((await store.get(key('private', 'alice')))?.version).toBe(1);
      expect(await store.get({ appName: 'other-app', userId: 'alice', id: 'private' })).toBeUndefined();
    }));

  it('deletes a session with all its events, keeping shared state and other sessions', () =>
    withStore(async (store, sql, schema) => {
      await store.create(key('gone'), [contractEvent('a', { actions: { stateDelta: { 'user:k': 1 } } }), contractEvent('b')]);
      await store.create(key('kept'), [contractEvent('c')]);
      await store.delete(key('gone'));
      const count = async (where: string) =>
        Number((await sql.query(`SELECT count(*) AS n FROM "${schema}".replan_events WHERE ${where}`)).rows[0].n);
      expect(await count(`session_id = 'gone'`)).toBe(0);
      expect(await count(`session_id = 'kept'`)).toBe(1);
      expect((await store.get(key('kept')))?.state['user:k']).toBe(1);
    }));

  it('pages through sessions in creation order without repeats or gaps', () =>
    withStore(async (store) => {
      const ids = Array.from({ length: 23 }, (_, i) => `s${String(i).padStart(2, '0')}`);
      for (const id of ids) await store.create(key(id), [contractEvent(id)]);
      await store.create(key('x', 'someone-else'));
      const seen: string[] = [];
      let cursor: string | undefined;
      let pages = 0;
      do {
        const page = await store.list({ appName: 'app', userId: 'u1', limit: 10, cursor });
        pages++;
        for (const s of page.sessions) expect(s).toMatchObject({ appName: 'app', userId: 'u1', version: 1 });
        seen.push(...page.sessions.map((s) => s.id));
        cursor = page.nextCursor;
      } while (cursor);
      expect(pages).toBe(3);
      expect(seen).toEqual(ids);
      await expect(store.list({ appName: 'app', userId: 'u1', cursor: 'nope' })).rejects.toMatchObject({ name: 'InvalidArgumentError' });
      await expect(store.list({ appName: 'app', userId: 'u1', limit: -1 })).rejects.toMatchObject({ name: 'InvalidArgumentError' });
    }));

  it('ends only a pool it created', async () => {
    const own = new PostgresSessionStore({ connectionString: db.connectionString, schema: db.freshSchema() });
    await own.create(key('a'));
    await own.close();
    await own.close();
    await expect(own.get(key('a'))).rejects.toMatchObject({ name: 'SessionStoreError' });
    await withStore(async (store, sql) => {
      await store.create(key('b'));
      await store.close();
      expect((await sql.query('SELECT 1 AS one')).rows[0].one).toBe(1);
    });
  });

  it('refuses bad options and arguments with typed errors', () =>
    withStore(async (store) => {
      expect(() => new PostgresSessionStore({})).toThrow(/exactly one of/);
      expect(() => new PostgresSessionStore({ connectionString: 'x', pool: new pg.Pool() })).toThrow(/exactly one of/);
      expect(() => new PostgresSessionStore({ connectionString: 'x', schema: '' })).toThrow(/schema/);
      expect(() => new PostgresSessionStore({ connectionString: 'x', lockTimeoutMs: -1 })).toThrow(/lockTimeoutMs/);
      expect(() => new PostgresSessionStore({ connectionString: 'x', idleInTransactionTimeoutMs: 1.5 })).toThrow(
        /idleInTransactionTimeoutMs/,
      );
      expect(() => new PostgresSessionStore({ connectionString: 'x', leasePool: new pg.Pool() })).toThrow(/leasePool goes with pool/);
      await store.create(key('v'));
      await expect(store.appendEvents(key('v'), [], { expectedVersion: 1.5 })).rejects.toMatchObject({ name: 'InvalidArgumentError' });
      expect((await store.appendEvents(key('v'), [], { expectedVersion: 0 })).version).toBe(0);
      await expect(store.appendEvents(key('v'), [], { expectedVersion: 3 })).rejects.toMatchObject({
        name: 'ConcurrentUpdateError',
        actualVersion: 0,
      });
    }));
});
