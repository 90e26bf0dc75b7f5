import pg from 'pg';
import { describe, expect } from 'vitest';
import { ConcurrentUpdateError, SessionNotFoundError } from '@replan/core';
import { contractEvent } from '@replan/core/testing';
import { PostgresSessionStore } from '@replan/postgres';
import { eventTexts } from './support/event-texts.js';
import { useTestPostgres } from './support/use-test-postgres.js';

const db = useTestPostgres();
const it = db.it;
const key = (id: string, userId = 'u1') => ({ appName: 'app', userId, id });

/** A store on a fresh schema over a pool that counts its checkouts (one per commit). */
async function withCountingStore(body: (store: PostgresSessionStore, checkouts: () => number) => Promise<void>): Promise<void> {
  const pool = new pg.Pool({ connectionString: db.connectionString, max: 10 });
  let acquired = 0;
  pool.on('acquire', () => acquired++);
  const store = new PostgresSessionStore({ pool, schema: db.freshSchema('group') });
  try {
    await store.migrate();
    await body(store, () => acquired);
  } finally {
    await store.close();
    await pool.end();
  }
}

describe('PostgresSessionStore group commit', () => {
  it('appends to 8 sessions made together are committed together: one checkout, every caller gets its version', () =>
    withCountingStore(async (store, checkouts) => {
      const ids = Array.from({ length: 8 }, (_, i) => `s${i}`);
      for (const id of ids) await store.create(key(id), [contractEvent(`${id}-0`)]);
      const before = checkouts();
      const results = await Promise.all(
        ids.map((id) => store.appendEvents(key(id), [contractEvent(`${id}-1`), contractEvent(`${id}-2`)], { expectedVersion: 1 })),
      );
      expect(results).toEqual(ids.map(() => ({ version: 3 })));
      expect(checkouts() - before).toBe(1);
      for (const id of ids) {
        const texts = eventTexts(await store.get(key(id)));
        expect(texts).toEqual([`${id}-0`, `${id}-1`, `${id}-2`]);
      }
    }));

  it("one session's conflict or absence fails only its own append in the shared commit", () =>
    withCountingStore(async (store, checkouts) => {
      await store.create(key('stale'), [contractEvent('x')]);
      await store.create(key('fine'));
      const before = checkouts();
      const [stale, fine, missing] = await Promise.allSettled([
        store.appendEvents(key('stale'), [contractEvent('late'), contractEvent('later')], { expectedVersion: 0 }),
        store.appendEvents(key('fine'), [contractEvent('ok')], { expectedVersion: 0 }),
        store.appendEvents(key('missing'), [contractEvent('nowhere')], { expectedVersion: 0 }),
      ]);
      expect(checkouts() - before).toBe(1);
      expect(fine).toEqual({ status: 'fulfilled', value: { version: 1 } });
      expect((stale as PromiseRejectedResult).reason).toBeInstanceOf(ConcurrentUpdateError);
      expect((stale as PromiseRejectedResult).reason).toMatchObject({ expectedVersion: 0, actualVersion: 1 });
      expect((missing as PromiseRejectedResult).reason).toBeInstanceOf(SessionNotFoundError);
      expect((await store.get(key('stale')))?.version).toBe(1);
      expect(await store.get(key('missing'))).toBeUndefined();
    }));

  it('two appends to one session made together keep their order: the next version succeeds, a same-version one conflicts', () =>
    withCountingStore(async (store) => {
      await store.create(key('s'));
      const [first, second, clash] = await Promise.allSettled([
        store.appendEvents(key('s'), [contractEvent('first')], { expectedVersion: 0 }),
        store.appendEvents(key('s'), [contractEvent('second')], { expectedVersion: 1 }),
        store.appendEvents(key('s'), [contractEvent('clash')], { expectedVersion: 1 }),
      ]);
      expect(first).toEqual({ status: 'fulfilled', value: { version: 1 } });
      expect(second).toEqual({ status: 'fulfilled', value: { version: 2 } });
      expect((clash as PromiseRejectedResult).reason).toMatchObject({
        name: 'ConcurrentUpdateError',
        expectedVersion: 1,
        actualVersion: 2,
      });
      const texts = eventTexts(await store.get(key('s')));
      expect(texts).toEqual(['first', 'second']);
    }));

  it('app:/user: state of a shared commit: later appends win, a refused append writes none of its keys', () =>
    withCountingStore(async (store) => {
      for (const id of ['a', 'b', 'c']) await store.create(key(id, id === 'b' ? 'u2' : 'u1'));
      await store.appendEvents(key('c'), [contractEvent('c0')], { expectedVersion: 0 });
      const delta = (stateDelta: Record<string, unknown>) => ({ actions: { stateDelta } });
      const results = await Promise.allSettled([
        store.appendEvents(key('a'), [contractEvent('a', delta({ 'app:x': 1, 'user:y': 'a', own: 'a' }))], { expectedVersion: 0 }),
        store.appendEvents(key('b', 'u2'), [contractEvent('b', delta({ 'app:x': 2, 'user:y': 'b' }))], { expectedVersion: 0 }),
        store.appendEvents(key('c'), [contractEvent('c', delta({ 'app:z': true, 'user:y': 'c' }))], { expectedVersion: 0 }),
      ]);
      expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'rejected']);
      expect((await store.get(key('a')))?.state).toEqual({ 'app:x': 2, 'user:y': 'a', own: 'a' });
      expect((await store.get(key('b', 'u2')))?.state).toEqual({ 'app:x': 2, 'user:y': 'b' });
      expect((await store.get(key('c')))?.state).toEqual({ 'app:x': 2, 'user:y': 'a' });
    }));

  it('close() waits for appends still queued: each is committed before the pool ends', async () => {
    const schema = db.freshSchema('close');
    const store = new PostgresSessionStore({ connectionString: db.connectionString, schema });
    await store.create(key('s'));
    const append = store.appendEvents(key('s'), [contractEvent('last')], { expectedVersion: 0 });
    await store.close();
    await expect(append).resolves.toEqual({ version: 1 });
    const reader = new PostgresSessionStore({ connectionString: db.connectionString, schema });
    expect((await reader.get(key('s')))?.version).toBe(1);
    await reader.close();
  });
});
