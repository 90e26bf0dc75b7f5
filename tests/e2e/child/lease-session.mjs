// @ts-check
/**
 * One process of the lease tests: runs or resumes a one-tool ReAct session under a lease, printing
 * `M <label>` lines as it goes and finally `RESULT <json>`.
 *
 * Usage: node lease-session.mjs '<json config>'
 *   { store, sessionId, mode: 'run' | 'resume', label, leaseMs, goFile?, fakeHeartbeat? }
 * The tool `work` prints `M TOOL <label>`, waits until `goFile` exists (when given), and answers
 * `done by <label>`. `fakeHeartbeat` makes the process believe its lease lasts a minute while the
 * store grants `leaseMs` (and renewals never reach the store), so its own expiry check never fires
 * and only the store's fencing can stop its appends.
 */
import { existsSync, writeSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { z } from 'zod';
import { LeaseLostError, ReActAgent, Runner, tool } from '@replan/core';
import { ScriptedModel, callTools } from '@replan/core/testing';
import { openStore } from './open-store.mjs';

/** @type {{ store: import('./open-store.mjs').StoreConfig, sessionId: string, mode: 'run' | 'resume', label: string, leaseMs: number, goFile?: string, fakeHeartbeat?: boolean }} */
const config = JSON.parse(process.argv[2] ?? '{}');
const say = (/** @type {string} */ line) => writeSync(1, `${line}\n`);

const inner = await openStore(config.store);
const acquire = inner.acquireLease?.bind(inner);
const renew = inner.renewLease?.bind(inner);
const release = inner.releaseLease?.bind(inner);
if (!acquire || !renew || !release) throw new Error(`store ${config.store.kind} has no lease methods`);
/** @type {import('@replan/core').SessionStore} */
const store = {
  create: (s, e) => inner.create(s, e),
  get: (k) => inner.get(k),
  list: (i) => inner.list(i),
  delete: (k) => inner.delete(k),
  appendEvents: async (k, events, options) => {
    try {
      const r = await inner.appendEvents(k, events, options);
      say(`M APPENDED ${events.length} token=${options.lease?.token}`);
      return r;
    } catch (error) {
      say(`M REFUSED ${/** @type {Error} */ (error).name}`);
      throw error;
    }
  },
  acquireLease: (k, o) =>
    acquire(k, config.fakeHeartbeat ? { ...o, ttlMs: config.leaseMs } : o).then((l) => (say(`M LEASED token=${l.token}`), l)),
  renewLease: config.fakeHeartbeat
    ? async (_k, lease, ttlMs) => ({ ...lease, expiresAt: Date.now() + ttlMs })
    : (k, l, t) => renew(k, l, t).then((r) => (say('M RENEWED'), r)),
  releaseLease: (k, l) => release(k, l),
};

const work = tool({
  name: 'work',
  description: 'Does the long part of the job.',
  parameters: z.object({}),
  execute: async () => {
    say(`M TOOL ${config.label}`);
    if (config.goFile) while (!existsSync(config.goFile)) await sleep(10);
    return `done by ${config.label}`;
  },
});
const model = new ScriptedModel({
  respond: (request) =>
    request.messages.at(-1)?.role === 'tool' ? `finished (${config.label})` : callTools({ name: 'work', id: 'w1', args: {} }),
});
const runner = new Runner({
  agent: new ReActAgent({ name: 'worker', model, tools: [work] }),
  appName: 'e2e',
  sessionStore: store,
  owner: `owner-${config.label}`,
  leaseMs: config.fakeHeartbeat ? 60_000 : config.leaseMs,
});
const key = { userId: 'u1', sessionId: config.sessionId };
const run = config.mode === 'run' ? runner.run({ ...key, input: 'do the work' }) : runner.resume(key);
try {
  const r = await run.result();
  const error = r.error ? { name: r.error.name, message: r.error.message, lost: r.error instanceof LeaseLostError } : undefined;
  say(`RESULT ${JSON.stringify({ status: r.status, output: r.output, error })}`);
} catch (e) {
  const error = /** @type {Error & { owner?: string, expiresAt?: number }} */ (e);
  say(
    `RESULT ${JSON.stringify({ status: 'rejected', error: { name: error.name, message: error.message, owner: error.owner, expiresAt: error.expiresAt } })}`,
  );
}
await inner.close?.();
