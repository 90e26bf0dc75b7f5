import pg from 'pg';
import { describe, expect } from 'vitest';
import { contractEvent } from '@replan/core/testing';
import { PostgresSessionStore } from '@replan/postgres';
import { useTestPostgres } from './support/use-test-postgres.js';

const db = useTestPostgres();
const it = db.it;
const key = (id: string) => ({ appName: 'app', userId: 'u1', id });

/** Counts calls, and waits until there have been `n` of them. */
function counter() {
  let calls = 0;
  let waiters: { n: number; resolve: () => void }[] = [];
  return {
    onChange: () => {
      calls++;
      waiters = waiters.filter((w) => (calls >= w.n ? (w.resolve(), false) : true));
    },
    calls: () => calls,
    reach: (n: number) => (calls >= n ? Promise.resolve() : new Promise<void>((resolve) => waiters.push({ n, resolve }))),
  };
}

describe('PostgresSessionStore.watchSession', () => {
  it("wakes a watcher in another store (another process's pool) when an append to its session commits", async () => {
    const schema = db.freshSchema('watch');
    const writer = new PostgresSessionStore({ connectionString: db.connectionString, schema, notifyAppends: true });
    const pool = new pg.Pool({ connectionString: db.connectionString, max: 3 });
    const reader = new PostgresSessionStore({ pool, schema });
    try {
      await writer.migrate();
      await writer.create(key('s1'), [contractEvent('e0')]);
      await writer.create(key('s2'), [contractEvent('f0')]);
      const watched = counter();
      const stop = reader.watchSession(key('s1'), watched.onChange);
      await watched.reach(1); // LISTEN is in effect (the watcher is woken once then)
      await writer.appendEvents(key('s2'), [contractEvent('f1')], { expectedVersion: 1 });
      await writer.appendEvents(key('s1'), [contractEvent('e1'), contractEvent('e2')], { expectedVersion: 1 });
      await watched.reach(2);
      // One wake for the commit to s1; the append to s2 woke nobody here.
      expect(watched.calls()).toBe(2);
      expect((await reader.get(key('s1')))?.version).toBe(3);
      stop();
    } finally {
      await reader.close();
      await pool.end();
      await writer.close();
    }
  });

  it('a store without notifyAppends wakes nobody', async () => {
    const schema = db.freshSchema('quiet');
    const quiet = new PostgresSessionStore({ connectionString: db.connectionString, schema });
    const loud = new PostgresSessionStore({ connectionString: db.connectionString, schema, notifyAppends: true });
    try {
      await quiet.migrate();
      await quiet.create(key('s1'), [contractEvent('e0')]);
      await quiet.create(key('s2'), [contractEvent('f0')]);
      const [one, two] = [counter(), counter()];
      const stops = [loud.watchSession(key('s1'), one.onChange), loud.watchSession(key('s2'), two.onChange)];
      await Promise.all([one.reach(1), two.reach(1)]);
      await quiet.appendEvents(key('s1'), [contractEvent('e1')], { expectedVersion: 1 });
      await loud.appendEvents(key('s2'), [contractEvent('f1')], { expectedVersion: 1 });
      // Notifications arrive in commit order: had the quiet append sent one, it would be here first.
      await two.reach(2);
      expect(one.calls()).toBe(1);
      for (const stop of stops) stop();
    } finally {
      await loud.close();
      await quiet.close();
    }
  });
});
