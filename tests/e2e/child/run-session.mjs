// @ts-check
/**
 * One process of an end-to-end test: runs or resumes a plan–execute session (linear or graph) on the file store
 * or PostgreSQL, printing markers (see markers.mjs) and finally `RESULT <json>`.
 *
 * Usage: node run-session.mjs '<json config>'
 *   { store, sessionId, userId?, scenario: 'steps' | 'approval' | 'graph', mode: 'run' | 'resume' | 'continue',
 *     values?, killAt?, hold?: { at, file }, workDir, processLabel, latencyMs? }
 * `continue` resumes the session, or starts it when a kill came before it was created.
 */
import { Runner } from '@replan/core';
import { effectLog } from './effect-log.mjs';
import { armHold, armKill, mark, say } from './markers.mjs';
import { markedStore } from './marked-store.mjs';
import { openStore } from './open-store.mjs';
import { SCENARIOS } from './scenarios.mjs';

/**
 * @type {{ store: import('./open-store.mjs').StoreConfig, sessionId: string, userId?: string,
 *   scenario: keyof typeof SCENARIOS, mode: 'run' | 'resume' | 'continue', values?: Record<string, unknown>,
 *   killAt?: number, hold?: { at: number, file: string }, workDir: string, processLabel: string, latencyMs?: number }}
 */
const config = JSON.parse(process.argv[2] ?? '{}');
armKill(config.killAt ?? 0);
if (config.hold) armHold(config.hold.at, config.hold.file);
const scenario = SCENARIOS[config.scenario];
const log = effectLog(config.workDir, config.processLabel);
const store = markedStore(await openStore(config.store), mark);
const agent = scenario.build({ latencyMs: config.latencyMs ?? 2, mark, log });
const runner = new Runner({ agent, appName: 'e2e', sessionStore: store });
const userId = config.userId ?? 'u1';
const { sessionId } = config;

let start = config.mode;
if (start === 'continue') start = (await store.get({ appName: 'e2e', userId, id: sessionId })) ? 'resume' : 'run';
say(`START ${start}`);
const run =
  start === 'run'
    ? runner.run({ userId, sessionId, input: scenario.input })
    : runner.resume({ userId, sessionId, ...(config.values ? { values: config.values } : {}) });
try {
  const r = await run.result();
  const error = r.error ? { name: r.error.name, message: r.error.message } : undefined;
  say(`RESULT ${JSON.stringify({ status: r.status, output: r.output, interrupts: r.interrupts, modelCalls: r.modelCalls, error })}`);
} catch (e) {
  const error = e instanceof Error ? { name: e.name, message: e.message } : { name: 'Error', message: String(e) };
  say(`RESULT ${JSON.stringify({ status: 'rejected', error })}`);
}
await store.close?.();
