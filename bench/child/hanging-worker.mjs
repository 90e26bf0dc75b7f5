/**
 * A worker process for the takeover benchmark: it claims runs whose model never answers in time
 * (a minute per call), so the parent can SIGKILL it while it holds one.
 * Usage: node hanging-worker.mjs '{ "connectionString", "schema", "leaseMs" }' — prints READY.
 */
import { ReActAgent, Runner } from '@replan/core';
import { ScriptedModel } from '@replan/core/testing';
import { PostgresRunQueue, PostgresSessionStore, Worker } from '@replan/postgres';

const config = JSON.parse(process.argv[2] ?? '{}');
const store = new PostgresSessionStore({ connectionString: config.connectionString, schema: config.schema, maxConnections: 2 });
const model = new ScriptedModel({ latencyMs: 60_000, respond: () => 'too late' });
const runner = new Runner({
  appName: 'bench',
  sessionStore: store,
  agent: new ReActAgent({ name: 'bench', model }),
  leaseMs: config.leaseMs,
  owner: 'victim',
});
const queue = new PostgresRunQueue({ connectionString: config.connectionString, schema: config.schema, maxConnections: 2 });
const worker = new Worker({ queue, runners: { bench: runner }, concurrency: 1, leaseMs: config.leaseMs, owner: 'victim' });
await worker.start();
process.stdout.write('READY\n');
