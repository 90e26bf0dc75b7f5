/**
 * A DBOS worker process for the `dbos-workers` benchmark: `dbosRuns` serving app `bench`, a ReAct
 * agent whose scripted model answers in `modelMs` (one `noop` tool call, then the answer). With
 * `hang`, the model never answers in time (a minute per call), so the parent can SIGKILL it
 * while it holds a run.
 * Usage: node dbos-worker.mjs '{ "connectionString", "schema", "systemDatabaseUrl", "leaseMs", "concurrency", "modelMs", "hang" }'
 * Prints READY once DBOS is launched.
 */
import { z } from 'zod';
import { ReActAgent, Runner, tool } from '@replan/core';
import { ScriptedModel, callTools } from '@replan/core/testing';
import { PostgresSessionStore } from '@replan/postgres';
import { dbosRuns } from '@replan/dbos';

const config = JSON.parse(process.argv[2] ?? '{}');
const store = new PostgresSessionStore({ connectionString: config.connectionString, schema: config.schema, maxConnections: 10 });
const noop = tool({ name: 'noop', description: 'does nothing', parameters: z.object({ i: z.string() }), execute: ({ i }) => `ok ${i}` });
const model = new ScriptedModel({
  latencyMs: config.hang ? 60_000 : config.modelMs,
  respond: (r) => (r.messages.some((m) => m.role === 'tool') ? 'done' : callTools({ name: 'noop', args: { i: 'x' } })),
});
const runner = new Runner({
  appName: 'bench',
  sessionStore: store,
  agent: new ReActAgent({ name: 'bench', model, tools: [noop] }),
  leaseMs: config.leaseMs,
});
const runs = dbosRuns({ runners: runner, concurrency: config.concurrency, leaseMs: config.leaseMs });
await runs.launch({ systemDatabaseUrl: config.systemDatabaseUrl, dbosConfig: { logLevel: 'error' } });
process.stdout.write('READY\n');
