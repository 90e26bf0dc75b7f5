/**
 * Runs on DBOS (`@replan/dbos`): throughput and pickup latency with 1, 2 and 4 worker processes
 * (each running 4 runs at once) on the same ReAct app as the run-queue bench (a 50 ms scripted
 * model, one tool call then the answer); and how long after a worker's SIGKILL its run is taken
 * over. Throwaway cluster (fsync off); workers are child processes (DBOS is one per process), the
 * bench process starts runs as a DBOS client (`worker: false`).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { ReActAgent, Runner } from '@replan/core';
import { ScriptedModel } from '@replan/core/testing';
import { PostgresSessionStore } from '@replan/postgres';
import { dbosRuns, type DbosRuns } from '@replan/dbos';
import { startTestPostgres, type TestPostgres } from '../packages/postgres/test/support/test-postgres.js';
import { fmt, table } from './measure.js';

const workerEntry = fileURLToPath(new URL('./child/dbos-worker.mjs', import.meta.url));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const MODEL_MS = 50;
const PER_WORKER = 4;
const SCHEMA = 'bench_dbos';
const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] as number;

interface Bench {
  readonly cluster: TestPostgres;
  readonly systemDatabaseUrl: string;
  readonly runs: DbosRuns;
  readonly sql: pg.Pool;
}

function startWorker(b: Bench, leaseMs: number, hang = false): Promise<ChildProcess> {
  const config = {
    connectionString: b.cluster.connectionString,
    schema: SCHEMA,
    systemDatabaseUrl: b.systemDatabaseUrl,
    leaseMs,
    concurrency: PER_WORKER,
    modelMs: MODEL_MS,
    hang,
  };
  const child = spawn(process.execPath, [workerEntry, JSON.stringify(config)], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    child.stdout?.setEncoding('utf8').on('data', (d: string) => d.includes('READY') && resolve(child));
    child.once('exit', () => reject(new Error('a DBOS bench worker exited before READY (run pnpm build first)')));
  });
}

async function stopAll(children: ChildProcess[]): Promise<void> {
  await Promise.all(
    children.map((c) => {
      if (c.exitCode !== null || c.signalCode !== null) return undefined;
      const gone = new Promise((r) => c.once('exit', r));
      c.kill('SIGKILL');
      return gone;
    }),
  );
}

/** Waits until every listed run's workflow succeeded (one query per look, not one per run). */
async function allDone(b: Bench, prefix: string, count: number): Promise<void> {
  for (;;) {
    const { rows } = await b.sql.query<{ n: string }>(
      `SELECT count(*) AS n FROM dbos.workflow_status WHERE status = 'SUCCESS' AND workflow_uuid LIKE $1`,
      [`replan/bench/u/${prefix}-%`],
    );
    if (Number(rows[0]?.n) >= count) return;
    await sleep(10);
  }
}

async function throughput(b: Bench, workers: number, jobs: number): Promise<number> {
  const children = await Promise.all(Array.from({ length: workers }, () => startWorker(b, 30_000)));
  try {
    const prefix = `tp${workers}`;
    const t0 = performance.now();
    await Promise.all(
      Array.from({ length: jobs }, (_, i) => b.runs.start({ userId: 'u', sessionId: `${prefix}-${i}`, input: `job ${i}` })),
    );
    await allDone(b, prefix, jobs);
    return (jobs / (performance.now() - t0)) * 1000;
  } finally {
    await stopAll(children);
  }
}

/** Runs started one every `gapMs` (below capacity): enqueue → dequeue, on the server's clock. */
async function pickup(b: Bench, workers: number, jobs: number, gapMs: number): Promise<number[]> {
  const children = await Promise.all(Array.from({ length: workers }, () => startWorker(b, 30_000)));
  try {
    const prefix = `pk${workers}`;
    for (let i = 0; i < jobs; i++) {
      await b.runs.start({ userId: 'u', sessionId: `${prefix}-${i}`, input: `job ${i}` });
      await sleep(gapMs);
    }
    await allDone(b, prefix, jobs);
    const { rows } = await b.sql.query<{ ms: string }>(
      `SELECT started_at_epoch_ms - created_at AS ms FROM dbos.workflow_status WHERE workflow_uuid LIKE $1`,
      [`replan/bench/u/${prefix}-%`],
    );
    return rows.map((r) => Number(r.ms)).sort((a, b) => a - b);
  } finally {
    await stopAll(children);
  }
}

/**
 * A worker process holding a run (its model never answers) is SIGKILLed at a random moment of its
 * heartbeat period; a live worker's takeover sweep hands the run over and dequeues it. Measures
 * kill → the live worker's dequeue, on this machine's clock.
 */
async function takeover(b: Bench, leaseMs: number, crashes: number): Promise<number[]> {
  const times: number[] = [];
  const live = await startWorker(b, leaseMs);
  try {
    for (let i = 0; i < crashes; i++) {
      const victim = await startWorker(b, leaseMs, true);
      try {
        const sessionId = `to${leaseMs}-${i}`;
        const id = `replan/bench/u/${sessionId}`;
        // Only the victim may dequeue it: the live worker is paused meanwhile (SIGSTOP) — resumed before the kill.
        live.kill('SIGSTOP');
        await b.runs.start({ userId: 'u', sessionId, input: `crash ${i}` });
        let holder: string | undefined;
        while (!holder) {
          const { rows } = await b.sql.query<{ executor_id: string }>(
            `SELECT executor_id FROM dbos.workflow_status WHERE workflow_uuid = $1 AND status = 'PENDING'`,
            [id],
          );
          holder = rows[0]?.executor_id;
          if (!holder) await sleep(5);
        }
        live.kill('SIGCONT');
        await sleep(200 + Math.random() * (leaseMs / 3));
        const killedAt = Date.now();
        victim.kill('SIGKILL');
        for (;;) {
          const { rows } = await b.sql.query<{ executor_id: string; started: string }>(
            `SELECT executor_id, started_at_epoch_ms AS started FROM dbos.workflow_status WHERE workflow_uuid = $1`,
            [id],
          );
          if (rows[0] && rows[0].executor_id !== holder && rows[0].started) {
            times.push(Number(rows[0].started) - killedAt);
            break;
          }
          await sleep(5);
        }
        await b.runs.cancel({ userId: 'u', sessionId }); // its model never answers: nothing more to measure
      } finally {
        await stopAll([victim]);
      }
    }
    return times.sort((a, b) => a - b);
  } finally {
    live.kill('SIGCONT');
    await stopAll([live]);
  }
}

export async function dbosWorkers(): Promise<string> {
  let cluster: TestPostgres;
  try {
    cluster = await startTestPostgres();
  } catch (error) {
    return `### Runs on DBOS\n\nSkipped: ${(error as Error).message}`;
  }
  const systemDatabaseUrl = cluster.connectionString.replace(/\/postgres$/, '/bench_dbos_sys');
  const store = new PostgresSessionStore({ connectionString: cluster.connectionString, schema: SCHEMA, maxConnections: 10 });
  const idle = new ReActAgent({ name: 'bench', model: new ScriptedModel({ respond: () => 'unused' }) });
  const runs = dbosRuns({ runners: new Runner({ appName: 'bench', agent: idle, sessionStore: store }), pollMs: 20 });
  const sql = new pg.Pool({ connectionString: systemDatabaseUrl, max: 2 });
  try {
    await runs.launch({ systemDatabaseUrl, worker: false, dbosConfig: { logLevel: 'error' } });
    await store.list({ appName: 'bench', userId: 'u' }); // migrates the session schema before workers race to
    const b: Bench = { cluster, systemDatabaseUrl, runs, sql };
    const rows: (string | number)[][] = [];
    for (const workers of [1, 2, 4]) {
      const jobsPerSec = await throughput(b, workers, 100 * workers);
      const latency = await pickup(b, workers, 60, 60);
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
      const times = await takeover(b, leaseMs, 5);
      takeovers.push([leaseMs, fmt(percentile(times, 50), 0), fmt(times.at(-1) as number, 0)]);
    }
    return [
      `### Runs on DBOS (${MODEL_MS} ms model, 2 model calls per run, ${PER_WORKER} runs per worker process)`,
      '',
      table(['workers', 'runs at once', 'jobs/s', 'ideal jobs/s', 'pickup p50 ms', 'pickup p99 ms'], rows),
      '',
      table(['leaseMs', 'takeover after SIGKILL, median ms', 'max ms'], takeovers),
    ].join('\n');
  } finally {
    await runs.shutdown();
    await store.close();
    await sql.end();
    await cluster.stop();
  }
}
