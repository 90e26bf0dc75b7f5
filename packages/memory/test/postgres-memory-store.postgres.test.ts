import { describe, expect, it as vitestIt } from 'vitest';
import type { MemoryError, MemoryStore } from '@replan/memory';
import { PostgresMemoryStore } from '@replan/memory/postgres';
import { runMemoryStoreContract } from '@replan/memory/testing';
import pg from 'pg';
import { useTestPostgres } from '../../postgres/test/support/use-test-postgres.js';

// Commits wait for their WAL, so the crash case loses nothing that was acknowledged.
const db = useTestPostgres({ synchronousCommit: true });
const alice = { appName: 'app', userId: 'alice' };
const quiet = () => undefined;

runMemoryStoreContract({
  name: 'PostgresMemoryStore',
  createStore: (setup) =>
    new PostgresMemoryStore({ connectionString: db.connectionString, schema: db.freshSchema('mem'), onWarning: quiet, ...setup }),
  disposeStore: (store) => (store as PostgresMemoryStore).close(),
  test: { describe, it: db.it, expect },
});

async function withStore(
  body: (store: PostgresMemoryStore) => Promise<void>,
  options: Partial<ConstructorParameters<typeof PostgresMemoryStore>[0]> = {},
) {
  const store = new PostgresMemoryStore({
    connectionString: db.connectionString,
    schema: db.freshSchema('mem'),
    onWarning: quiet,
    ...options,
  });
  try {
    await body(store);
  } finally {
    await store.close();
  }
}

const embed = async (texts: readonly string[]) => texts.map((t) => [t.includes('tea') ? 1 : 0, t.includes('coffee') ? 1 : 0, 0.1]);

describe('PostgresMemoryStore', () => {
  db.it('says when pgvector is missing (naming the package) and searches vectors in process instead', async () => {
    const probe = new pg.Pool({ connectionString: db.connectionString });
    const available = (await probe.query("SELECT 1 FROM pg_available_extensions WHERE name = 'vector'")).rowCount! > 0;
    await probe.end();
    const warnings: string[] = [];
    await withStore(
      async (store) => {
        expect(await store.vectorSearch()).toBe(available ? 'pgvector' : 'in-process');
        const tea = await store.put({ scope: alice, kind: 'fact', text: 'green tea' });
        await store.put({ scope: alice, kind: 'fact', text: 'black coffee' });
        expect((await store.search({ scope: alice, query: 'tea please', k: 1 })).map((h) => h.item)).toEqual([tea]);
      },
      { embed, onWarning: (m) => warnings.push(m) },
    );
    if (available) expect(warnings).toEqual([]);
    else {
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatch(/pgvector is not available.*apt-get install postgresql-\d+-pgvector/s);
    }
    await withStore(async (store) => expect(await store.vectorSearch()).toBeUndefined());
  });

  db.it('items stored before an embedder was configured are embedded at the first semantic search', async () => {
    const schema = db.freshSchema('mem');
    const plain = new PostgresMemoryStore({ connectionString: db.connectionString, schema });
    const coffee = await plain.put({ scope: alice, kind: 'fact', text: 'coffee beans' });
    await plain.put({ scope: alice, kind: 'fact', text: 'tea leaves' });
    await plain.close();
    const calls: string[][] = [];
    const semantic = new PostgresMemoryStore({
      connectionString: db.connectionString,
      schema,
      onWarning: quiet,
      embed: async (texts) => {
        calls.push([...texts]);
        return embed(texts);
      },
    });
    expect((await semantic.search({ scope: alice, query: 'coffee', k: 1 })).map((h) => h.item)).toEqual([coffee]);
    expect((await semantic.search({ scope: alice, query: 'coffee', k: 1 })).map((h) => h.item)).toEqual([coffee]);
    expect(calls).toEqual([['coffee beans', 'tea leaves'], ['coffee'], ['coffee']]);
    await semantic.close();
  });

  db.it('lexical search is full-text (stemmed, GIN-indexed), and query syntax in the text is taken as words', async () => {
    await withStore(async (store) => {
      const running = await store.put({ scope: alice, kind: 'fact', text: 'She runs every morning before work.' });
      expect((await store.search({ scope: alice, query: 'running' })).map((h) => h.item)).toEqual([running]);
      for (const query of ['a & b | !c', "'; DROP TABLE x; --", '"unclosed', '-runs', 'morning) (', '<-> :* \\']) {
        const hits = await store.search({ scope: alice, query });
        expect(hits.every((h) => h.item.id === running.id)).toBe(true);
      }
      const probe = new pg.Pool({ connectionString: db.connectionString });
      const { rows } = await probe.query("SELECT indexdef FROM pg_indexes WHERE indexname = 'replan_memories_tsv'");
      await probe.end();
      expect(rows.some((r: { indexdef: string }) => /USING gin \(tsv\)/.test(r.indexdef))).toBe(true);
    });
  });

  db.it('stores that start at once on a new schema all create the table without error', async () => {
    const schema = db.freshSchema('race');
    const stores = Array.from({ length: 8 }, () => new PostgresMemoryStore({ connectionString: db.connectionString, schema }));
    const made = await Promise.all(stores.map((s, i) => s.put({ scope: alice, kind: 'fact', text: `racer ${i}` })));
    expect((await stores[0]!.list({ scope: alice })).items.map((i) => i.id).sort()).toEqual(made.map((i) => i.id).sort());
    await Promise.all(stores.map((s) => s.close()));
  });

  db.it('a pool you pass is used and left open', async () => {
    const pool = new pg.Pool({ connectionString: db.connectionString });
    const store = new PostgresMemoryStore({ pool, schema: db.freshSchema('mem') });
    await store.put({ scope: alice, kind: 'fact', text: 'pooled' });
    await store.close();
    expect((await pool.query('SELECT 1 AS one')).rows[0].one).toBe(1);
    await pool.end();
  });

  vitestIt("a database that cannot be reached is MemoryError('unavailable') in every method", async () => {
    const store = new PostgresMemoryStore({ connectionString: 'postgresql://postgres@127.0.0.1:1/postgres' });
    const calls: [string, () => Promise<unknown>][] = [
      ['put', () => store.put({ scope: alice, kind: 'fact', text: 'x' })],
      ['search', () => store.search({ scope: alice, query: 'x' })],
      ['list', () => store.list({ scope: alice })],
      ['get', () => store.get(alice, 'm00000000000000000000000000')],
      ['delete', () => store.delete(alice, 'm00000000000000000000000000')],
      ['forgetUser', () => store.forgetUser(alice)],
    ];
    for (const [name, call] of calls) {
      const error = (await call().catch((e) => e)) as MemoryError;
      expect({ name, error: error?.name, kind: error?.kind }).toEqual({ name, error: 'MemoryError', kind: 'unavailable' });
      expect(error.message).toContain('Check that PostgreSQL is running');
    }
    await store.close();
  });

  db.it("a server that goes down mid-use: 'unavailable', nothing lost; works again once it is back", async () => {
    await withStore(async (store: MemoryStore) => {
      const kept = await store.put({ scope: alice, kind: 'fact', text: 'before the outage' });
      await db.crash();
      try {
        const error = (await store.put({ scope: alice, kind: 'fact', text: 'during' }).catch((e) => e)) as MemoryError;
        expect([error.name, error.kind]).toEqual(['MemoryError', 'unavailable']);
        await expect(store.search({ scope: alice, query: 'outage' })).rejects.toMatchObject({ kind: 'unavailable' });
      } finally {
        await db.restart();
      }
      expect((await store.list({ scope: alice })).items).toEqual([kept]);
    });
  });
});
