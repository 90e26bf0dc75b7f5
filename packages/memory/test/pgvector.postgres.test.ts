// PostgresMemoryStore's pgvector path, on PGlite (PostgreSQL compiled to WebAssembly, with its
// pgvector build) behind its wire-protocol socket server on 127.0.0.1: the machine's PostgreSQL has
// no pgvector, and the store must be tested with it too. PGlite is one session, so one connection.
import { PGlite } from '@electric-sql/pglite';
import { vector } from '@electric-sql/pglite-pgvector';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PostgresMemoryStore } from '@replan/memory/postgres';
import { runMemoryStoreContract } from '@replan/memory/testing';
import pg from 'pg';

let db: PGlite;
let server: PGLiteSocketServer;
let connectionString: string;
/** One connection for every store: the socket server serves one, and a new one while the last closes fails. */
let pool: pg.Pool;
let schemas = 0;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

beforeAll(async () => {
  db = await PGlite.create({ extensions: { vector } });
  const port = await freePort();
  server = new PGLiteSocketServer({ db, port, host: '127.0.0.1', maxConnections: 1 });
  await server.start();
  connectionString = `postgresql://postgres@127.0.0.1:${port}/postgres?sslmode=disable`;
  pool = new pg.Pool({ connectionString, max: 1 });
}, 60_000);

afterAll(async () => {
  await pool?.end();
  await server?.stop();
  await db?.close();
});

function open(options: Partial<ConstructorParameters<typeof PostgresMemoryStore>[0]> = {}): PostgresMemoryStore {
  return new PostgresMemoryStore({ pool, schema: `pgv_${++schemas}`, onWarning: (m) => expect.fail(m), ...options });
}

runMemoryStoreContract({
  name: 'PostgresMemoryStore with pgvector (PGlite)',
  createStore: (setup) => open(setup),
  test: { describe, it, expect },
});

const alice = { appName: 'app', userId: 'alice' };
const embed = async (texts: readonly string[]) => texts.map((t) => [t.includes('tea') ? 1 : 0, t.includes('coffee') ? 1 : 0, 0.1]);

describe('PostgresMemoryStore with pgvector', () => {
  it('creates the extension, says nothing, and searches in the database', async () => {
    const store = open({ embed });
    expect(await store.vectorSearch()).toBe('pgvector');
    const tea = await store.put({ scope: alice, kind: 'fact', text: 'green tea' });
    await store.put({ scope: alice, kind: 'fact', text: 'black coffee' });
    const hits = await store.search({ scope: alice, query: 'tea please', k: 5 });
    expect(hits[0]?.item).toEqual(tea);
    expect(hits[0]!.score).toBeGreaterThan(0.9);
    const { rows } = await pool.query(`SELECT count(*)::int AS n FROM pgv_${schemas}.replan_memories WHERE embedding_v IS NOT NULL`);
    expect(rows[0].n).toBe(2);
  });

  it('rows without a vector column value (stored before pgvector, or before the embedder) get one at the next search', async () => {
    const plain = open();
    const schema = `pgv_${schemas}`;
    const coffee = await plain.put({ scope: alice, kind: 'fact', text: 'coffee beans' });
    const semantic = new PostgresMemoryStore({ pool, schema, embed, onWarning: (m) => expect.fail(m) });
    const tea = await semantic.put({ scope: alice, kind: 'fact', text: 'tea leaves' });
    await pool.query(`UPDATE ${schema}.replan_memories SET embedding_v = NULL WHERE id = $1`, [tea.id]);
    expect((await semantic.search({ scope: alice, query: 'coffee', k: 1 })).map((h) => h.item)).toEqual([coffee]);
    expect((await semantic.search({ scope: alice, query: 'tea', k: 1 })).map((h) => h.item)).toEqual([tea]);
  });
});
