// @ts-check
/**
 * One worker process of the run-queue chaos test: a `Worker` serving the graph scenario (app
 * `e2e`) from a PostgreSQL queue until SIGTERM (graceful stop) or SIGKILL (a crash).
 *
 * Usage: node queue-worker.mjs '<json config>'
 *   { connectionString, schema, workDir, label, leaseMs, latencyMs, concurrency }
 * Prints `READY` once it listens and claims. Writes, in workDir:
 *   effects.log — one line per side effect the `record` tool made: { key, label } (repeats included);
 *   appends.log — one line per append this process committed: { session, owner, token, from, to }.
 */
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { Runner } from '@replan/core';
import { PostgresRunQueue, PostgresSessionStore, Worker } from '@replan/postgres';
import { buildGraphAgent } from './graph-scenario.mjs';

/** @type {{ connectionString: string, schema: string, workDir: string, label: string, leaseMs: number, latencyMs: number, concurrency: number }} */
const config = JSON.parse(process.argv[2] ?? '{}');
const line = (/** @type {string} */ file, /** @type {object} */ entry) =>
  appendFileSync(join(config.workDir, file), `${JSON.stringify(entry)}\n`);

// Every side effect is written, repeats included, so the parent can tell which calls ran twice.
const log = {
  attempt: () => undefined,
  applyOnce: (/** @type {string} */ key) => (line('effects.log', { key, label: config.label }), true),
};

const inner = new PostgresSessionStore({ connectionString: config.connectionString, schema: config.schema, maxConnections: 4 });
/**
 * The store, with every committed append logged with the lease it carried: the parent checks
 * that no two leases' appends to one session interleave. A Proxy keeps the lease methods.
 * @type {import('@replan/core').SessionStore}
 */
const store = new Proxy(inner, {
  get(target, prop, receiver) {
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

const agent = buildGraphAgent({ latencyMs: config.latencyMs, mark: () => undefined, log });
const runner = new Runner({ agent, appName: 'e2e', sessionStore: store, leaseMs: config.leaseMs, owner: config.label });
const queue = new PostgresRunQueue({ connectionString: config.connectionString, schema: config.schema, maxConnections: 4 });
const worker = new Worker({
  queue,
  runners: { e2e: runner },
  concurrency: config.concurrency,
  leaseMs: config.leaseMs,
  owner: config.label,
  onError: (error) => process.stderr.write(`${config.label}: ${error.message}\n`),
});

process.once('SIGTERM', async () => {
  await worker.stop();
  await queue.close();
  await inner.close();
  process.stdout.write('STOPPED\n');
  process.exit(0);
});
await worker.start();
process.stdout.write('READY\n');
