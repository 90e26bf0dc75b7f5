/**
 * A run queue in PostgreSQL: a producer submits runs, two workers claim and drive them, one run
 * waits for a human's approval and comes back with submitResume. In production the workers are
 * separate processes on any machines (see docs/workers.md); here they share this process.
 * Offline: a ScriptedModel plays the model, and a throwaway PostgreSQL cluster (initdb/pg_ctl on
 * a free port in a temp dir) is started and removed. Without PostgreSQL installed it says so and
 * exits (under CI=true it fails instead).
 * Run: pnpm build && npx tsx examples/workers/main.ts
 */
import { z } from 'zod';
import { ReActAgent, Runner, tool, toolResultsOf } from '@replan/core';
import { ScriptedModel, callTools } from '@replan/core/testing';
import { PostgresRunQueue, PostgresSessionStore, Worker } from '@replan/postgres';
// The throwaway cluster comes from the repository's test support; your app uses its DATABASE_URL.
import { findPostgresBin, startTestPostgres } from '../../packages/postgres/test/support/test-postgres.js';

if (!findPostgresBin()) {
  if (process.env.CI === 'true') throw new Error('PostgreSQL (initdb, pg_ctl) is needed for this example under CI.');
  console.log('Skipped: PostgreSQL is not installed (no initdb/pg_ctl; set REPLAN_PG_BIN or install postgresql).');
  process.exit(0);
}

const APP = 'shop';
const shipped = new Map<string, string>(); // idempotency key → worker: the side effects

/** One worker's runner: its own model and tool (which says who shipped), the shared database. */
function workerRunner(name: string, store: PostgresSessionStore): Runner {
  const ship = tool({
    name: 'ship',
    description: 'Ships an order.',
    parameters: z.object({ order: z.string(), express: z.boolean() }),
    // Express shipping costs extra: a human approves it (the run stops, interrupted).
    needsApproval: ({ express }) => express,
    execute: ({ order }, ctx) => {
      if (!shipped.has(ctx.idempotencyKey)) shipped.set(ctx.idempotencyKey, name);
      return `order ${order} shipped by ${name}`;
    },
  });
  const model = new ScriptedModel({
    latencyMs: 20,
    respond: (request) => {
      const results = request.messages.flatMap((m) => toolResultsOf(m));
      if (results.length) return `Done: ${String(results[0]?.output)}.`;
      const text = JSON.stringify(request.messages.at(-1)?.content);
      const order = /order (\d+)/.exec(text)?.[1] ?? '0';
      return callTools({ name: 'ship', args: { order, express: text.includes('express') }, id: `ship-${order}` });
    },
  });
  const agent = new ReActAgent({ name: 'clerk', model, tools: [ship] });
  // The runner leases the session for as long as the worker leases the job (see docs/workers.md).
  return new Runner({ appName: APP, agent, sessionStore: store, leaseMs: 5_000, owner: name });
}

const cluster = await startTestPostgres();
const { connectionString } = cluster;
const store = new PostgresSessionStore({ connectionString });
const queue = new PostgresRunQueue({ connectionString });
const workers = ['worker-1', 'worker-2'].map(
  (name) => new Worker({ queue, runners: { [APP]: workerRunner(name, store) }, concurrency: 3, leaseMs: 5_000, owner: name }),
);
try {
  await queue.migrate();
  await Promise.all(workers.map((w) => w.start()));

  // The producer: six orders, one of them express.
  const orders = ['101', '102', '103', '104', '105', '106'];
  const sessions = await Promise.all(
    orders.map((order) =>
      queue.submit({ appName: APP, userId: 'alice', input: `Ship order ${order}${order === '104' ? ' express' : ''}.` }),
    ),
  );
  const results = await Promise.all(sessions.map(({ sessionId }) => queue.waitFor({ appName: APP, userId: 'alice', sessionId })));
  for (const [i, r] of results.entries()) console.log(`order ${orders[i]}: ${r.status}${r.output ? ` — ${r.output}` : ''}`);

  // The express order waits for a human: the operations view lists it, no worker touches it.
  const open = await queue.listRuns(); // the replan_runs view
  console.log('not completed:', open.map((r) => `${r.sessionId.slice(0, 8)} ${r.status} (${r.runStatus})`).join(', '));
  const waiting = results.find((r) => r.status === 'interrupted');
  if (!waiting) throw new Error('expected the express order to wait for approval');
  console.log(`approval asked: ${JSON.stringify(waiting.interrupts[0]?.payload)}`);
  await queue.submitResume({ appName: APP, userId: 'alice', sessionId: waiting.sessionId, values: { [waiting.interrupts[0]!.id]: true } });
  const approved = await queue.waitFor({ appName: APP, userId: 'alice', sessionId: waiting.sessionId });
  console.log(`order 104 after approval: ${approved.status} — ${approved.output}`);

  const byWorker: Record<string, number> = {};
  for (const w of shipped.values()) byWorker[w] = (byWorker[w] ?? 0) + 1;
  console.log(`side effects: ${shipped.size} shipments for ${orders.length} orders, by worker: ${JSON.stringify(byWorker)}`);
} finally {
  await Promise.all(workers.map((w) => w.stop()));
  await queue.close();
  await store.close();
  await cluster.stop();
}
