/**
 * The PostgreSQL run queue: throughput and pickup latency with 1, 2 and 4 workers (each running
 * 4 runs at once) on a ReAct app whose scripted model answers in 50 ms (one tool call, then the
 * answer: 2 model calls per run); and how long after a worker's crash its run is taken over,
 * for a few `leaseMs`. Throwaway cluster (fsync off), workers in this process.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { ReActAgent, Runner } from '@replan/core';
import { ScriptedModel, callTools } from '@replan/core/testing';
import { PostgresRunQueue, PostgresSessionStore, Worker } from '@replan/postgres';
import { startTestPostgres, type TestPostgres } from '../packages/postgres/test/support/test-postgres.js';
import { fmt, table } from './measure.js';
import { noop } from './session-log.js';

const APP = 'bench';
const hangingWorker = fileURLToPath(new URL('./child/hanging-worker.mjs', import.meta.url));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const MODEL_MS = 50;
const PER_WORKER = 4;

interface Setup {
  readonly queue: PostgresRunQueue;
  readonly store: PostgresSessionStore;
  readonly sql: pg.Pool;
  readonly schema: string;
  readonly workers: (n: number, leaseMs?: number) => Promise<Worker[]>;
  close(): Promise<void>;
}

let schemas = 0;
async function setup(cluster: TestPostgres): Promise<Setup> {
  const schema = `bench_queue_${++schemas}`;
  const queue = new PostgresRunQueue({ connectionString: cluster.connectionString, schema, maxConnections: 10 });
  await queue.migrate();
  const store = new PostgresSessionStore({ connectionString: cluster.connectionString, schema, maxConnections: 20 });
  const sql = new pg.Pool({ connectionString: cluster.connectionString, max: 2 });
  const started: Worker[] = [];
  return {
    queue,
    store,
    sql,
    schema,
    async workers(n, leaseMs = 30_000) {
      const ws = Array.from({ length: n }, () => {
        const model = new ScriptedModel({
          latencyMs: MODEL_MS,
          respond: (r) => (r.messages.some((m) => m.role === 'tool') ? 'done' : callTools({ name: 'noop', args: { i: 'x' } })),
        });
        const agent = new ReActAgent({ name: 'bench', model, tools: [noop] });
        const runner = new Runner({ appName: APP, sessionStore: store, agent, leaseMs }); // the session lease as long as the job's
        return new Worker({ queue, runners: { [APP]: runner }, concurrency: PER_WORKER, leaseMs });
      });
      started.push(...ws);
      await Promise.all(ws.map((w) => w.start()));
      return ws;
    },
    async close() {
      await Promise.all(started.map((w) => w.stop({ graceMs: 0 })));
      await queue.close();
      await store.close();
      await sql.end();
    },
  };
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] as number;

/** `jobs` submitted at once; jobs/s until the last completed. */
async function throughput(cluster: TestPostgres, workers: number, jobs: number): Promise<number> {
  const s = await setup(cluster);
  try {
    await s.workers(workers);
    const t0 = performance.now();
    const ids = await Promise.all(Array.from({ length: jobs }, (_, i) => s.queue.submit({ appName: APP, userId: 'u', input: `job ${i}` })));
    const results = await Promise.all(ids.map(({ sessionId }) => s.queue.waitFor({ appName: APP, userId: 'u', sessionId })));
    const ms = performance.now() - t0;
    if (results.some((r) => r.status !== 'completed')) throw new Error('a bench run did not complete');
    return (jobs / ms) * 1000;
  } finally {
    await s.close();
  }
}

/** Jobs submitted one every `gapMs` (below capacity): submit commit → claim, on the server's clock. */
async function pickup(cluster: TestPostgres, workers: number, jobs: number, gapMs: number): Promise<number[]> {
  const s = await setup(cluster);
  try {
    await s.workers(workers);
    const ids: string[] = [];
    for (let i = 0; i < jobs; i++) {
      ids.push((await s.queue.submit({ appName: APP, userId: 'u', input: `job ${i}` })).sessionId);
      await sleep(gapMs);
    }
    await Promise.all(ids.map((sessionId) => s.queue.waitFor({ appName: APP, userId: 'u', sessionId })));
    const { rows } = await s.sql.query<{ ms: number }>(
      `SELECT extract(epoch FROM started_at - created_at) * 1000 AS ms FROM "${s.schema}".replan_jobs`,
    );
    return rows.map((r) => Number(r.ms)).sort((a, b) => a - b);
  } finally {
    await s.close();
  }
}

/**
 * A crash: a worker process holding a run is SIGKILLed at a random moment of its heartbeat
 * period; a live worker (same `leaseMs`, woken by its lease timer, no NOTIFY) claims the run.
 * Measures kill → claim, on one clock (both in this machine).
 */
async function takeover(cluster: TestPostgres, leaseMs: number, crashes: number): Promise<number[]> {
  const s = await setup(cluster);
  const times: number[] = [];
  try {
    for (let i = 0; i < crashes; i++) {
      const victim = spawn(
        process.execPath,
        [hangingWorker, JSON.stringify({ connectionString: cluster.connectionString, schema: s.schema, leaseMs })],
        {
          stdio: ['ignore', 'pipe', 'inherit'],
        },
      );
      const exited = new Promise((r) => victim.on('close', r));
      try {
        await new Promise<void>((resolve, reject) => {
          victim.stdout.setEncoding('utf8').on('data', (d: string) => d.includes('READY') && resolve());
          void exited.then(() => reject(new Error('the hanging worker exited before READY (run pnpm build first)')));
        });
        const { sessionId } = await s.queue.submit({ appName: APP, userId: 'u', input: `crash ${i}` });
        for (;;) {
          const { rows } = await s.sql.query(`SELECT 1 FROM "${s.schema}".replan_jobs WHERE session_id = $1 AND owner = 'victim'`, [
            sessionId,
          ]);
          if (rows.length) break;
          await sleep(5);
        }
        const [live] = await s.workers(1, leaseMs); // starts now: it sees the victim's lease and sleeps until it expires
        await sleep(Math.random() * (leaseMs / 3));
        victim.kill('SIGKILL');
        const killedAt = Date.now();
        await exited;
        await s.queue.waitFor({ appName: APP, userId: 'u', sessionId });
        const { rows } = await s.sql.query<{ ms: number }>(
          `SELECT extract(epoch FROM claimed_at) * 1000 AS ms FROM "${s.schema}".replan_jobs WHERE session_id = $1`,
          [sessionId],
        );
        times.push(Number(rows[0]?.ms) - killedAt); // the last claim: the one that ran it
        await live?.stop();
      } finally {
        victim.kill('SIGKILL');
        await exited;
      }
    }
    return times.sort((a, b) => a - b);
  } finally {
    await s.close();
  }
}

export async function runQueue(): Promise<string> {
  let cluster: TestPostgres;
  try {
    cluster = await startTestPostgres();
  } catch (error) {
    return `### Run queue\n\nSkipped: ${(error as Error).message}`;
  }
  try {
    const rows: (string | number)[][] = [];
    for (const workers of [1, 2, 4]) {
      const jobsPerSec = await throughput(cluster, workers, 100 * workers);
      const latency = await pickup(cluster, workers, 60, 60);
      rows.push([
        workers,
        workers * PER_WORKER,
        fmt(jobsPerSec, 0),
        fmt((workers * PER_WORKER * 1000) / (2 * MODEL_MS), 0),
        fmt(percentile(latency, 50)),
        fmt(percentile(latency, 99)),
      ]);
    }
    const takeovers: (string | number)[][] = [];
    for (const leaseMs of [300, 1_000, 3_000]) {
      const times = await takeover(cluster, leaseMs, leaseMs >= 3_000 ? 4 : 8);
      takeovers.push([leaseMs, fmt(percentile(times, 50), 0), fmt(times.at(-1) as number, 0)]);
    }
    return [
      `### Run queue (${MODEL_MS} ms model, 2 model calls per run, ${PER_WORKER} runs per worker)`,
      '',
      table(['workers', 'runs at once', 'jobs/s', 'ideal jobs/s', 'pickup p50 ms', 'pickup p99 ms'], rows),
      '',
      table(['leaseMs', 'takeover after crash, median ms', 'max ms'], takeovers),
    ].join('\n');
  } finally {
    await cluster.stop();
  }
}
