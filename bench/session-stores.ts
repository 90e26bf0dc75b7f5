/**
 * Session stores: bytes written per step as a run grows (the file store's file, PostgreSQL's
 * WAL), loading and resuming a 10,000-event session from each store, and appends per second
 * from 1 and 8 concurrent sessions. Starts its own throwaway PostgreSQL clusters (the test harness):
 * one with fsync off for everything, and one with fsync and synchronous commit on (a real server's
 * durability) for the append rates; without PostgreSQL installed, its rows say so and the file
 * store's are still measured.
 * Run: pnpm bench session-stores (or: pnpm build && npx tsx bench/session-stores.ts; add `appends`
 * to measure the append rates only).
 */
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { FileSessionStore, type AgentEvent, type SessionStore } from '@replan/core';
import { ScriptedModel } from '@replan/core/testing';
import { PostgresSessionStore } from '@replan/postgres';
import { startTestPostgres, type TestPostgres } from '../packages/postgres/test/support/test-postgres.js';
import { fmt, table } from './measure.js';
import { benchRunner, stepModel, storeLog, unfinishedLog } from './session-log.js';

const APP = 'bench';
const key = (id: string) => ({ appName: APP, userId: 'u', id });
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
const time = async (fn: () => Promise<unknown>) => {
  const t0 = performance.now();
  await fn();
  return performance.now() - t0;
};

/** Where each store keeps a bench run, and how many bytes it has written so far. */
interface Subject {
  readonly name: string;
  store(): SessionStore;
  /** Bytes written for the session so far: its file's size, or the WAL position. */
  bytes(sessionId: string): Promise<number>;
  dispose(): Promise<void>;
}

async function fileSubject(): Promise<Subject> {
  const dir = await mkdtemp(join(tmpdir(), 'replan-bench-'));
  return {
    name: 'FileSessionStore',
    store: () => new FileSessionStore({ dir }),
    bytes: async (id) => (await stat(join(dir, 'sessions', APP, 'u', `${id}.jsonl`))).size,
    dispose: () => rm(dir, { recursive: true, force: true }),
  };
}

async function postgresSubject(cluster: TestPostgres, schema: string, label = ''): Promise<Subject> {
  const sql = new pg.Pool({ connectionString: cluster.connectionString, max: 1 });
  return {
    name: `PostgresSessionStore${label}`,
    store: () => new PostgresSessionStore({ connectionString: cluster.connectionString, schema, maxConnections: 10 }),
    bytes: async () =>
      Number((await sql.query<{ lsn: string }>(`SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0')::text AS lsn`)).rows[0]?.lsn),
    dispose: () => sql.end(),
  };
}

const CHECKPOINTS = [10, 100, 1000];

/**
 * A real 1000-step ReAct run (a model call and a tool call per step, every step the same size),
 * measuring the bytes written by each step. Reports the mean over the 10 steps up to each
 * checkpoint: flat means no step rewrites history.
 */
async function bytesPerStep(subject: Subject): Promise<(string | number)[]> {
  const store = subject.store();
  const sizes: number[] = [];
  const wrapped: SessionStore = {
    create: (s, e) => store.create(s, e),
    get: (k) => store.get(k),
    list: (i) => store.list(i),
    delete: (k) => store.delete(k),
    async appendEvents(k, events, options) {
      const r = await store.appendEvents(k, events, options);
      if (events[0]?.message?.role === 'tool') sizes.push(await subject.bytes(k.id));
      return r;
    },
  };
  const steps = CHECKPOINTS.at(-1) as number;
  const t0 = performance.now();
  const result = await benchRunner(wrapped, stepModel(steps), steps + 1)
    .run({ userId: 'u', sessionId: 'steps', input: 'go' })
    .result();
  const ms = performance.now() - t0;
  if (result.status !== 'completed') throw new Error(`bytes-per-step run ended ${result.status}: ${result.error?.message}`);
  await store.close?.();
  const perStep = (n: number) => {
    const from = Math.max(0, n - 11);
    return ((sizes[n - 1] as number) - (sizes[from] as number)) / (n - 1 - from);
  };
  return [subject.name, ...CHECKPOINTS.map((n) => fmt(perStep(n), 0)), fmt(ms / steps, 2)];
}

const BIG = 10_000;

/** Loads (median of 5) and resumes (median of 3 sessions) a crashed 10,000-event run. */
async function loadAndResume(subject: Subject): Promise<(string | number)[]> {
  const store = subject.store();
  const sessions = ['big-0', 'big-1', 'big-2'];
  for (const id of sessions) await storeLog(store, key(id), unfinishedLog(BIG));
  const loads: number[] = [];
  for (let i = 0; i < 5; i++) {
    let events: readonly AgentEvent[] = [];
    loads.push(await time(async () => (events = (await store.get(key('big-0')))?.events ?? [])));
    if (events.length !== BIG) throw new Error(`loaded ${events.length} events`);
  }
  const resumes: number[] = [];
  for (const id of sessions) {
    const runner = benchRunner(store, new ScriptedModel({ respond: () => 'done' }), BIG);
    resumes.push(
      await time(async () => {
        const r = await runner.resume({ userId: 'u', sessionId: id }).result();
        if (r.status !== 'completed' || r.modelCalls !== 1) throw new Error(`resume ended ${r.status}: ${r.error?.message}`);
      }),
    );
  }
  await store.close?.();
  return [subject.name, fmt(median(loads)), fmt(median(resumes))];
}

/** Appends of one event each, from `sessions` concurrent sessions, for `perSession` appends each. */
async function appendRate(subject: Subject, sessions: number, perSession = 300): Promise<(string | number)[]> {
  const store = subject.store();
  const logs = Array.from({ length: sessions }, () => unfinishedLog(perSession + 1));
  await Promise.all(logs.map((log, s) => store.create(key(`rate-${sessions}-${s}`), log.slice(0, 1))));
  const ms = await time(() =>
    Promise.all(
      logs.map(async (log, s) => {
        for (let i = 1; i <= perSession; i++)
          await store.appendEvents(key(`rate-${sessions}-${s}`), [log[i] as AgentEvent], { expectedVersion: i });
      }),
    ),
  );
  await store.close?.();
  const total = sessions * perSession;
  return [subject.name, sessions, total, fmt((total / ms) * 1000, 0), fmt(ms / perSession, 2)];
}

const APPEND_RATES_TEXT = [
  '### Appends per second',
  '',
  'One event per `appendEvents` call, each awaited before the next in its session; sessions run concurrently in one process (one store, pool of 10). PostgreSQL runs twice: fsync and synchronous commit off (the test cluster), and on (every commit flushed to disk, as on a real server).',
  '',
];

/** Append rates with 1 and 8 sessions: the file store, PostgreSQL with fsync off, and with fsync on. */
async function appendRates(fast: TestPostgres | undefined): Promise<string> {
  const durable = fast ? await startTestPostgres({ fsync: true }) : undefined;
  try {
    const rows: (string | number)[][] = [];
    for (const sessions of [1, 8]) {
      const subjects = [
        await fileSubject(),
        ...(fast ? [await postgresSubject(fast, `bench_rate${sessions}`, ' (fsync off)')] : []),
        ...(durable ? [await postgresSubject(durable, `bench_rate${sessions}`, ' (fsync on)')] : []),
      ];
      for (const subject of subjects)
        try {
          rows.push(await appendRate(subject, sessions));
        } finally {
          await subject.dispose();
        }
    }
    return [...APPEND_RATES_TEXT, table(['store', 'sessions', 'appends', 'appends/s', 'ms per append (per session)'], rows)].join('\n');
  } finally {
    await durable?.stop();
  }
}

export async function sessionStores(onlyAppends = false): Promise<string> {
  let cluster: TestPostgres | undefined;
  let skipped = '';
  try {
    cluster = await startTestPostgres();
  } catch (error) {
    skipped = `PostgreSQL rows skipped: ${(error as Error).message.split('\n')[0]}`;
  }
  const subjects = async (schema: string) => [await fileSubject(), ...(cluster ? [await postgresSubject(cluster, schema)] : [])];
  const each = async <T>(schema: string, fn: (s: Subject) => Promise<T>): Promise<T[]> => {
    const out: T[] = [];
    for (const subject of await subjects(schema))
      try {
        out.push(await fn(subject));
      } finally {
        await subject.dispose();
      }
    return out;
  };
  try {
    const rates = await appendRates(cluster);
    if (onlyAppends) return [rates, ...(skipped ? ['', skipped] : [])].join('\n');
    const steps = await each('bench_steps', bytesPerStep);
    const big = await each('bench_big', loadAndResume);
    return [
      '### Bytes written per step as a run grows',
      '',
      'A ReAct run of 1000 steps (one model call, one tool call, two events per step, every step the same size); mean bytes written per step over the 10 steps before each checkpoint. File store: growth of the session file. PostgreSQL: WAL bytes (the whole cluster, so background activity adds a little).',
      '',
      table(['store', 'step 10', 'step 100', 'step 1000', 'ms per step (whole run)'], steps),
      '',
      '### Loading and resuming a 10,000-event session',
      '',
      'A crashed ReAct run of 10,000 stored events (5,000 tool calls with results). Load: `store.get` (read and validate every event). Resume: a new `Runner` resumes it — load, rebuild, one model call, two appends.',
      '',
      table(['store', 'load (ms, median of 5)', 'resume to completion (ms, median of 3)'], big),
      '',
      rates,
      ...(skipped ? ['', skipped] : []),
    ].join('\n');
  } finally {
    await cluster?.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(await sessionStores(process.argv[2] === 'appends'));
