/**
 * Memory stores (issue 36): how long it takes to load 10,000 and 100,000 memories into one user's
 * scope, one more `put`, reopening (the file store reads its log back), and search latency (p50,
 * p95 over 200 queries of 4 words, k = 5) — lexical (BM25 in memory and file, full-text search in
 * PostgreSQL) and semantic (a 64-dimension embedder computed in process; PostgreSQL without
 * pgvector compares the vectors in process too). PostgreSQL rows use a throwaway cluster (the test
 * harness; fsync off) and say so when it cannot start.
 * Run: pnpm bench memory-search (or: pnpm build && npx tsx bench/memory-search.ts [10000|100000]).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Embedder, FileMemoryStore, InMemoryMemoryStore, type MemoryStore } from '@replan/memory';
import { PostgresMemoryStore } from '@replan/memory/postgres';
import { startTestPostgres, type TestPostgres } from '../packages/postgres/test/support/test-postgres.js';
import { fmt, table } from './measure.js';

const scope = { appName: 'bench', userId: 'u1' };
const QUERIES = 200;
/** Semantic searches are fewer: PostgreSQL without pgvector reads every vector of the scope per search. */
const SEMANTIC_QUERIES = 50;

/** A small deterministic PRNG (mulberry32), so every run stores and searches the same texts. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** 5,000 made-up words; texts draw them with a skewed (roughly Zipf) frequency, like prose. */
const WORDS = Array.from({ length: 5000 }, (_, i) => `w${i.toString(36)}${'aeiou'[i % 5]}`);
function sentence(next: () => number, words: number): string {
  return Array.from({ length: words }, () => WORDS[Math.floor(WORDS.length * next() ** 3)]).join(' ');
}

/** A 64-dimension bag-of-words embedder (hashing words), as cheap as an embedder can be: what is measured is the store. */
const embed: Embedder = async (texts) =>
  texts.map((text) => {
    const v = new Array<number>(64).fill(0);
    for (const word of text.split(' ')) {
      let h = 2166136261;
      for (let i = 0; i < word.length; i++) h = Math.imul(h ^ word.charCodeAt(i), 16777619);
      v[(h >>> 0) % 64]! += 1;
    }
    return v;
  });

const percentile = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))]!;
async function time(fn: () => Promise<unknown>): Promise<number> {
  const t0 = performance.now();
  await fn();
  return performance.now() - t0;
}

interface Subject {
  readonly name: string;
  /** A store on the same data as the last one made (for "reopen"); `semantic` adds the embedder. */
  open(semantic: boolean): MemoryStore;
  /** How many puts to keep in flight while loading (the file store commits them in shared flushes). */
  readonly concurrency: number;
  dispose(): Promise<void>;
}

/** Loads `count` memories, then measures one put, a reopen and the searches. */
async function measure(subject: Subject, count: number, semantic: boolean): Promise<(string | number)[]> {
  const next = random(count);
  const store = subject.open(semantic);
  const load = await time(async () => {
    for (let i = 0; i < count; i += subject.concurrency) {
      const batch = Math.min(subject.concurrency, count - i);
      await Promise.all(Array.from({ length: batch }, () => store.put({ scope, kind: 'fact', text: sentence(next, 12) })));
    }
  });
  const puts: number[] = [];
  for (let i = 0; i < 50; i++) puts.push(await time(() => store.put({ scope, kind: 'fact', text: sentence(next, 12) })));
  const reopened = subject.open(semantic);
  const reopen = await time(() => reopened.list({ scope, limit: 1 }));
  const total = semantic ? SEMANTIC_QUERIES : QUERIES;
  const queries = Array.from({ length: total }, () => sentence(next, 4));
  for (const query of queries.slice(0, 10)) await reopened.search({ scope, query }); // warm-up
  const latencies: number[] = [];
  let found = 0;
  for (const query of queries) latencies.push(await time(async () => (found += (await reopened.search({ scope, query })).length)));
  await close(store);
  await close(reopened);
  return [
    subject.name,
    semantic ? 'semantic' : 'lexical',
    count.toLocaleString('en'),
    fmt(load / 1000, 1),
    fmt((count / load) * 1000, 0),
    fmt(percentile(puts, 0.5), 2),
    fmt(reopen, 0),
    fmt(percentile(latencies, 0.5), 2),
    fmt(percentile(latencies, 0.95), 2),
    fmt(found / total, 1),
  ];
}

async function close(store: MemoryStore): Promise<void> {
  if (store instanceof PostgresMemoryStore) await store.close();
}

async function subjects(cluster: TestPostgres | undefined, label: string): Promise<Subject[]> {
  let memory: InMemoryMemoryStore | undefined;
  const dir = await mkdtemp(join(tmpdir(), 'replan-bench-memory-'));
  const out: Subject[] = [
    {
      name: 'InMemoryMemoryStore',
      concurrency: 100,
      // Nothing to reopen: the same store again.
      open: (semantic) => {
        memory ??= new InMemoryMemoryStore(semantic ? { embed } : {});
        return memory;
      },
      dispose: async () => undefined,
    },
    {
      name: 'FileMemoryStore',
      concurrency: 100,
      open: (semantic) => new FileMemoryStore({ dir, ...(semantic && { embed }) }),
      dispose: () => rm(dir, { recursive: true, force: true }),
    },
  ];
  if (cluster)
    out.push({
      name: 'PostgresMemoryStore',
      concurrency: 10,
      open: (semantic) =>
        new PostgresMemoryStore({
          connectionString: cluster.connectionString,
          schema: `bench_${label}`,
          onWarning: () => undefined,
          ...(semantic && { embed }),
        }),
      dispose: async () => undefined,
    });
  return out;
}

export async function memorySearch(sizes: readonly number[] = [10_000, 100_000]): Promise<string> {
  let cluster: TestPostgres | undefined;
  let skipped = '';
  try {
    cluster = await startTestPostgres();
  } catch (error) {
    skipped = `PostgreSQL rows skipped: ${(error as Error).message.split('\n')[0]}`;
  }
  const rows: (string | number)[][] = [];
  const loadBefore = loadavg()[0]!;
  try {
    for (const semantic of [false, true])
      for (const count of sizes)
        for (const subject of await subjects(cluster, `${semantic ? 's' : 'l'}${count}`)) {
          try {
            rows.push(await measure(subject, count, semantic));
          } finally {
            await subject.dispose();
          }
        }
  } finally {
    await cluster?.stop();
  }
  return [
    '### Memory stores: load, put and search',
    '',
    `One user's scope holding N memories of 12 words (from 5,000 made-up words, skewed like prose); ${QUERIES} searches (${SEMANTIC_QUERIES} semantic) of 4 words, k = 5. ` +
      'Load: N puts, 100 at a time (10 for PostgreSQL, its pool size). Put: one more, alone (p50 of 50). Reopen: a new store on the same data answering its first call ' +
      '(the file store reads its log back; the in-memory store is the same object). Semantic: a 64-dimension bag-of-words embedder in process (PostgreSQL without pgvector compares vectors in process).',
    '',
    table(
      ['store', 'search', 'N', 'load (s)', 'puts/s', 'put p50 (ms)', 'reopen (ms)', 'search p50 (ms)', 'search p95 (ms)', 'hits/search'],
      rows,
    ),
    '',
    `Load average (1 min) ${fmt(loadBefore, 2)} before, ${fmt(loadavg()[0]!, 2)} after.`,
    ...(skipped ? ['', skipped] : []),
  ].join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const size = Number(process.argv[2]);
  console.log(await memorySearch(size ? [size] : undefined));
}
