// @ts-check
/**
 * One worker process of the DBOS tests: `dbosRuns` serving app `e2e` (the graph scenario of the
 * e2e kill tests), `approve` (a ReAct agent whose `record` tool needs approval) or `slow` (a ReAct
 * agent whose one tool takes `toolMs`, default 2 s, and ignores its abort signal), until SIGTERM
 * (graceful) or SIGKILL (a crash). Runs on the built packages (dist).
 *
 * Usage: node dbos-worker.mjs '<json config>'
 *   { connectionString, systemDatabaseUrl, schema, workDir, label, leaseMs, latencyMs, toolMs?, concurrency, app, variant? }
 *   (toolMs: added to each graph tool call's time, so a kill can land while a call runs; app `slow`: its tool's time;
 *   createDelayMs: how long creating a session waits, after its `<id>:create` line in effects.log)
 * Prints `READY` once DBOS is launched. Writes, in workDir:
 *   effects.log — one line per side effect: { key, label } (repeats included);
 *   appends.log — one line per committed append: { session, label, owner, token, from, to };
 *   releases.log — one line per lease a run released as it ended: { session, label }.
 */
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { ReActAgent, Runner, tool, toolResultsOf } from '@replan/core';
import { ScriptedModel, callTools } from '@replan/core/testing';
import { PostgresSessionStore } from '@replan/postgres';
import { dbosRuns } from '@replan/dbos';
import { buildGraphAgent } from '../../../../tests/e2e/child/graph-scenario.mjs';

/** @type {{ connectionString: string, systemDatabaseUrl: string, schema: string, workDir: string, label: string, leaseMs: number, latencyMs: number, toolMs?: number, createDelayMs?: number, concurrency: number, app: 'e2e' | 'approve' | 'slow', variant?: string }} */
const config = JSON.parse(process.argv[2] ?? '{}');
const line = (/** @type {string} */ file, /** @type {object} */ entry) =>
  appendFileSync(join(config.workDir, file), `${JSON.stringify(entry)}\n`);

const log = {
  attempt: () => undefined,
  applyOnce: (/** @type {string} */ key) => (line('effects.log', { key, label: config.label }), true),
};

const inner = new PostgresSessionStore({ connectionString: config.connectionString, schema: config.schema, maxConnections: 4 });
/**
 * The store, with every committed append logged with the lease it carried, every lease released
 * logged (a run releases its lease as it ends), and each session's creation held back
 * `createDelayMs` when set.
 * @type {import('@replan/core').SessionStore}
 */
const store = new Proxy(inner, {
  get(target, prop, receiver) {
    if (prop === 'create' && config.createDelayMs)
      return async (/** @type {import('@replan/core').CreateSessionInput} */ session, /** @type {any} */ events) => {
        line('effects.log', { key: `${session.id}:create`, label: config.label });
        await new Promise((r) => setTimeout(r, config.createDelayMs));
        return target.create(session, events);
      };
    if (prop === 'releaseLease')
      return async (/** @type {import('@replan/core').SessionKey} */ key, /** @type {any} */ lease) => {
        await target.releaseLease(key, lease);
        line('releases.log', { session: key.id, label: config.label });
      };
    if (prop !== 'appendEvents') {
      const value = Reflect.get(target, prop, receiver);
      return typeof value === 'function' ? value.bind(target) : value;
    }
    return async (
      /** @type {import('@replan/core').SessionKey} */ key,
      /** @type {readonly import('@replan/core').AgentEvent[]} */ events,
      /** @type {import('@replan/core').AppendOptions} */ options,
    ) => {
      const result = await target.appendEvents(key, events, options);
      const lease = /** @type {{ lease?: { owner: string, token: number } }} */ (options).lease;
      line('appends.log', {
        session: key.id,
        label: config.label,
        owner: lease?.owner,
        token: lease?.token,
        from: options.expectedVersion,
        to: result.version,
      });
      return result;
    };
  },
});

/** A ReAct agent that records one item through a tool that needs approval, then answers. */
function approvalAgent() {
  const record = tool({
    name: 'record',
    description: 'Records an item.',
    parameters: z.object({ item: z.string() }),
    needsApproval: true,
    execute: ({ item }, ctx) => {
      log.applyOnce(ctx.idempotencyKey);
      return `recorded ${item}`;
    },
  });
  const model = new ScriptedModel({
    latencyMs: config.latencyMs,
    respond: (request) =>
      request.messages.flatMap((m) => toolResultsOf(m)).length ? 'done' : callTools({ name: 'record', args: { item: 'x' }, id: 'rec-1' }),
  });
  return new ReActAgent({ name: 'agent', model, tools: [record] });
}

/** A ReAct agent whose one tool takes `toolMs` and ignores its abort signal, then answers. */
function slowAgent() {
  const wait = tool({
    name: 'wait',
    description: 'Waits.',
    parameters: z.object({}),
    execute: async (_args, ctx) => {
      log.applyOnce(ctx.idempotencyKey);
      await new Promise((r) => setTimeout(r, config.toolMs ?? 2_000)); // ctx.signal ignored on purpose
      line('effects.log', { key: `${ctx.idempotencyKey}:end`, label: config.label });
      return 'waited';
    },
  });
  const model = new ScriptedModel({
    latencyMs: config.latencyMs,
    respond: (request) =>
      request.messages.flatMap((m) => toolResultsOf(m)).length ? 'done' : callTools({ name: 'wait', args: {}, id: 'wait-1' }),
  });
  return new ReActAgent({ name: 'agent', model, tools: [wait] });
}

const agent =
  config.app === 'approve'
    ? approvalAgent()
    : config.app === 'slow'
      ? slowAgent()
      : buildGraphAgent({ latencyMs: config.latencyMs, toolMs: config.toolMs ?? 0, mark: () => undefined, log });
const runner = new Runner({ agent, appName: config.app, sessionStore: store, leaseMs: config.leaseMs, owner: config.label });
const runs = dbosRuns({
  runners: [runner],
  concurrency: config.concurrency,
  onError: (error) => process.stderr.write(`${config.label}: ${error.message}\n`),
});
if (config.variant === 'v2') {
  // A "deploy": this version's code registers one more workflow, so DBOS's own code hash would differ.
  const { DBOS } = await import('@dbos-inc/dbos-sdk');
  DBOS.registerWorkflow(async () => 'v2', { name: 'replan.test.v2-only' });
}

process.once('SIGTERM', async () => {
  await runs.shutdown();
  await inner.close();
  process.stdout.write('STOPPED\n');
  process.exit(0);
});
await runs.launch({ systemDatabaseUrl: config.systemDatabaseUrl, executorId: config.label });
process.stdout.write('READY\n');
