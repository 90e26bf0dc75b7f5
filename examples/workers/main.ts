/**
 * Many workers on DBOS: a producer starts runs, two worker processes drive them as durable DBOS
 * workflows, one run waits for a human's approval (answered from the producer), and one worker is
 * killed mid-way: its runs are taken over by the other, redoing no finished tool call. In
 * production the workers are your service's processes on any machines (see docs/workers.md).
 * Offline: a ScriptedModel plays the model, and a throwaway PostgreSQL cluster (initdb/pg_ctl on
 * a free port in a temp dir) holds both the sessions and DBOS's tables. Without PostgreSQL
 * installed it says so and exits (under CI=true it fails instead).
 * Run: pnpm build && npx tsx examples/workers/main.ts
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { DBOS } from '@dbos-inc/dbos-sdk';
import { z } from 'zod';
import { ReActAgent, Runner, tool, toolResultsOf } from '@replan/core';
import { ScriptedModel, callTools } from '@replan/core/testing';
import { PostgresSessionStore } from '@replan/postgres';
import { dbosRuns } from '@replan/dbos';
// The throwaway cluster comes from the repository's test support; your app uses its DATABASE_URL.
import { findPostgresBin, startTestPostgres } from '../../packages/postgres/test/support/test-postgres.js';

const APP = 'shop';

/** The app every process builds the same way: a clerk that ships orders (express needs approval). */
function shopRunner(name: string, store: PostgresSessionStore): Runner {
  const ship = tool({
    name: 'ship',
    description: 'Ships an order.',
    parameters: z.object({ order: z.string(), express: z.boolean() }),
    needsApproval: ({ express }) => express,
    execute: ({ order }) => `order ${order} shipped by ${name}`,
  });
  const model = new ScriptedModel({
    latencyMs: 200,
    respond: (request) => {
      const results = request.messages.flatMap((m) => toolResultsOf(m));
      if (results.length) return `Done: ${String(results[0]?.output)}.`;
      const text = JSON.stringify(request.messages.at(-1)?.content);
      const order = /order (\d+)/.exec(text)?.[1] ?? '0';
      return callTools({ name: 'ship', args: { order, express: text.includes('express') }, id: `ship-${order}` });
    },
  });
  // Short leases for the example: a dead worker's runs move within a second or two.
  return new Runner({
    appName: APP,
    agent: new ReActAgent({ name: 'clerk', model, tools: [ship] }),
    sessionStore: store,
    leaseMs: 1_500,
    owner: name,
  });
}

/** A worker process: launch DBOS with the app's runner and drive runs until killed. */
async function worker(name: string, databaseUrl: string, systemDatabaseUrl: string): Promise<void> {
  const store = new PostgresSessionStore({ connectionString: databaseUrl });
  const runs = dbosRuns({ runners: shopRunner(name, store), concurrency: 4 });
  await runs.launch({ systemDatabaseUrl, executorId: name, dbosConfig: { logLevel: 'error' } });
  process.once('SIGTERM', () => void runs.shutdown().then(() => process.exit(0)));
  process.stdout.write('READY\n');
}

function spawnWorker(name: string, databaseUrl: string, systemDatabaseUrl: string): Promise<ChildProcess> {
  const child = spawn(
    process.execPath,
    [...process.execArgv, fileURLToPath(import.meta.url), 'worker', name, databaseUrl, systemDatabaseUrl],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  return new Promise((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => chunk.toString().includes('READY') && resolve(child));
    child.once('exit', (code) => reject(new Error(`${name} exited (${code}) before it was ready`)));
  });
}

async function producer(): Promise<void> {
  if (!findPostgresBin()) {
    if (process.env.CI === 'true') throw new Error('PostgreSQL (initdb, pg_ctl) is needed for this example under CI.');
    console.log('Skipped: PostgreSQL is not installed (no initdb/pg_ctl; set REPLAN_PG_BIN or install postgresql).');
    return;
  }
  const cluster = await startTestPostgres();
  const databaseUrl = cluster.connectionString;
  const systemDatabaseUrl = databaseUrl.replace(/\/postgres$/, '/shop_dbos'); // DBOS creates it
  const store = new PostgresSessionStore({ connectionString: databaseUrl });
  // The producer starts, answers and reads runs; it drives none (worker: false).
  const runs = dbosRuns({ runners: shopRunner('producer', store) });
  const workers: ChildProcess[] = [];
  try {
    await runs.launch({ systemDatabaseUrl, worker: false, dbosConfig: { logLevel: 'error' } });
    workers.push(...(await Promise.all(['worker-1', 'worker-2'].map((name) => spawnWorker(name, databaseUrl, systemDatabaseUrl)))));

    const orders = ['101', '102', '103', '104', '105', '106'];
    for (const order of orders)
      await runs.start({ userId: 'alice', sessionId: `order-${order}`, input: `Ship order ${order}${order === '104' ? ' express' : ''}.` });

    // worker-1 dies with runs in hand: worker-2 takes them over (its process is gone on this host).
    // Killed only once it holds a run (DBOS's workflow table says which executor holds which).
    const held = await runsHeldBy('worker-1', 15_000);
    workers[0]?.kill('SIGKILL');
    console.log(`worker-1 killed holding ${held} run(s)`);
    const failures: string[] = [];
    // Which worker dequeues which run is DBOS's choice: when worker-2 took them all, there is nothing to take over.
    if (!held) console.log('worker-1 held no run when it was killed (worker-2 had dequeued them all): no takeover this time');

    for (const order of orders) {
      const key = { userId: 'alice', sessionId: `order-${order}` };
      let result = await runs.result(key);
      if (result.status === 'interrupted') {
        const asked = result.interrupts[0]!;
        console.log(`order ${order}: waits for approval (${asked.toolName} ${JSON.stringify(asked.payload)})`);
        await runs.answer({ ...key, values: { [asked.id]: { approved: true } } });
        result = await runs.result(key);
      }
      console.log(`order ${order}: ${result.status} — ${result.output}`);
      if (result.status !== 'completed')
        failures.push(`order ${order} ended ${result.status}${result.error ? `: ${result.error.message}` : ''}`);
    }
    // A failed demonstration must not look like a passing one: say what went wrong and exit non-zero.
    if (failures.length) {
      for (const f of failures) console.error(`FAILED: ${f}`);
      process.exitCode = 1;
    }
  } finally {
    for (const w of workers) w.kill('SIGTERM');
    await Promise.all(
      workers.map((w) => (w.exitCode === null && w.signalCode === null ? new Promise((r) => w.once('exit', r)) : undefined)),
    );
    await runs.shutdown();
    await store.close();
    await cluster.stop();
  }
}

/** How many run workflows `executorId` holds (PENDING), waiting up to `waitMs` for at least one. */
async function runsHeldBy(executorId: string, waitMs: number): Promise<number> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    const held = await DBOS.listWorkflows({ workflowName: 'replan.run', status: 'PENDING', executorId });
    if (held.length || Date.now() > deadline) return held.length;
    await new Promise((r) => setTimeout(r, 50));
  }
}

if (process.argv[2] === 'worker') await worker(process.argv[3]!, process.argv[4]!, process.argv[5]!);
else await producer();
