import pg from 'pg';
import { describe, expect } from 'vitest';
import { ConcurrentUpdateError } from '@replan/core';
import { contractEvent } from '@replan/core/testing';
import { MIGRATIONS, PostgresSessionStore } from '@replan/postgres';
import { useTestPostgres } from './support/use-test-postgres.js';

const db = useTestPostgres();
const it = db.it;
const key = { appName: 'app', userId: 'u1', id: 'race' };

describe('PostgresSessionStore under concurrency', () => {
  it('concurrent appends from two pools at the same version: exactly one wins, nothing partial', async () => {
    const schema = db.freshSchema('race');
    const [a, b] = [0, 1].map(() => new PostgresSessionStore({ connectionString: db.connectionString, schema, maxConnections: 4 }));
    try {
      await a!.create(key);
      let version = 0;
      for (let round = 0; round < 40; round++) {
        // Multi-event batches: a loser must not leave any of its events behind.
        const batch = (tag: string) => [contractEvent(`${tag}${round}`), contractEvent(`${tag}${round}'`)];
        const results = await Promise.allSettled([
          a!.appendEvents(key, batch('a'), { expectedVersion: version }),
          b!.appendEvents(key, batch('b'), { expectedVersion: version }),
        ]);
        const won = results.filter((r) => r.status === 'fulfilled');
        expect(won.length).toBe(1);
        const lost = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
        expect(lost.reason).toBeInstanceOf(ConcurrentUpdateError);
        expect(lost.reason).toMatchObject({ expectedVersion: version, actualVersion: version + 2 });
        version += 2;
      }
      const session = (await b!.get(key))!;
      expect(session.version).toBe(80);
      // Batches are whole: each round is two events of the same writer.
      for (let i = 0; i < 80; i += 2) {
        const [x, y] = [session.events[i]!, session.events[i + 1]!].map((e) => (e.message!.content[0] as { text: string }).text);
        expect(y).toBe(`${x}'`);
      }
    } finally {
      await Promise.all([a!.close(), b!.close()]);
    }
  });

  it('many appenders on many sessions sharing app: keys neither deadlock nor lose a write', async () => {
    const schema = db.freshSchema('many');
    const stores = [0, 1, 2].map(() => new PostgresSessionStore({ connectionString: db.connectionString, schema, maxConnections: 4 }));
    try {
      await stores[0]!.migrate();
      const ids = Array.from({ length: 6 }, (_, i) => `s${i}`);
      await Promise.all(ids.map((id) => stores[0]!.create({ ...key, id })));
      const work = ids.map(async (id, i) => {
        const store = stores[i % 3]!;
        for (let n = 0; n < 15; n++) {
          // Keys in opposite orders across sessions would deadlock without ordered upserts.
          const delta = i % 2 ? { 'app:a': n, 'app:b': n } : { 'app:b': n, 'app:a': n };
          await store.appendEvents({ ...key, id }, [contractEvent(`${id}-${n}`, { actions: { stateDelta: delta } })], {
            expectedVersion: n,
          });
        }
      });
      await Promise.all(work);
      for (const id of ids) expect((await stores[1]!.get({ ...key, id }))?.version).toBe(15);
      expect((await stores[2]!.get({ ...key, id: 's0' }))?.state).toMatchObject({ 'app:a': 14, 'app:b': 14 });
    } finally {
      await Promise.all(stores.map((s) => s.close()));
    }
  });

  it('migrate() is idempotent and safe from many processes at once; first use migrates too', async () => {
    const schema = db.freshSchema('mig');
    const stores = [0, 1, 2, 3].map(() => new PostgresSessionStore({ connectionString: db.connectionString, schema, maxConnections: 2 }));
    const sql = new pg.Pool({ connectionString: db.connectionString, max: 1 });
    try {
      await Promise.all(stores.map((s) => s.migrate()));
      await stores[0]!.migrate();
      const applied = await sql.query(`SELECT version FROM "${schema}".replan_migrations ORDER BY version`);
      expect(applied.rows).toEqual(MIGRATIONS.map((m) => ({ version: m.version }))); // each applied once
      // A store that never called migrate() works on a brand-new schema.
      const lazy = new PostgresSessionStore({ pool: sql, schema: db.freshSchema('lazy') });
      await lazy.create(key, [contractEvent('x')]);
      expect((await lazy.get(key))?.version).toBe(1);
    } finally {
      await Promise.all(stores.map((s) => s.close()));
      await sql.end();
    }
  });

  it('refuses a schema migrated by a newer replan', async () => {
    const schema = db.freshSchema('newer');
    const store = new PostgresSessionStore({ connectionString: db.connectionString, schema });
    try {
      await store.migrate();
      const sql = new pg.Client(db.connectionString);
      await sql.connect();
      await sql.query(`INSERT INTO "${schema}".replan_migrations (version, name) VALUES (99, 'future')`);
      await sql.end();
      const fresh = new PostgresSessionStore({ connectionString: db.connectionString, schema });
      await expect(fresh.get(key)).rejects.toMatchObject({ name: 'SessionStoreError', message: /version 99 by a newer replan/ });
      await fresh.close();
    } finally {
      await store.close();
    }
  });

  it('reports an unreachable database as SessionStoreError and retries migration on the next call', async () => {
    const store = new PostgresSessionStore({ connectionString: 'postgresql://postgres@127.0.0.1:1/none', schema: db.freshSchema() });
    for (let i = 0; i < 2; i++)
      await expect(store.get(key)).rejects.toMatchObject({ name: 'SessionStoreError', message: /Check the connection settings/ });
    await store.close();
  });
});
