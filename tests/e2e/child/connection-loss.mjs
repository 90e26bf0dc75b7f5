// @ts-check
/**
 * One process that loses its PostgreSQL server mid-run and carries on: runs the `steps`
 * plan–execute scenario on PostgresSessionStore, printing markers (markers.mjs), `ACK <json ids>`
 * for every append the store acknowledged, and `RESULT <json>` when the run ends. Then it waits
 * for a line `resume` on stdin (the parent restarts the server first) and resumes the run with
 * the same store object and runner, printing `RESULT` again. Exits 0 after that.
 *
 * Usage: node connection-loss.mjs '<json config>'  { connectionString, schema, sessionId, workDir, latencyMs }
 */
import { createInterface } from 'node:readline';
import { Runner } from '@replan/core';
import { PostgresSessionStore } from '@replan/postgres';
import { effectLog } from './effect-log.mjs';
import { mark, say } from './markers.mjs';
import { markedStore } from './marked-store.mjs';
import { SCENARIOS } from './scenarios.mjs';

/** @type {{ connectionString: string, schema: string, sessionId: string, workDir: string, latencyMs: number }} */
const config = JSON.parse(process.argv[2] ?? '{}');
const postgres = new PostgresSessionStore({ connectionString: config.connectionString, schema: config.schema, maxConnections: 2 });
/** @type {import('@replan/core').SessionStore} */
const acknowledging = {
  create: async (input, events) => {
    const session = await postgres.create(input, events);
    say(`ACK ${JSON.stringify((events ?? []).map((e) => e.id))}`);
    return session;
  },
  get: (key) => postgres.get(key),
  list: (input) => postgres.list(input),
  delete: (key) => postgres.delete(key),
  appendEvents: async (key, events, options) => {
    const result = await postgres.appendEvents(key, events, options);
    say(`ACK ${JSON.stringify(events.map((e) => e.id))}`);
    return result;
  },
};
const store = markedStore(acknowledging, mark);
const scenario = SCENARIOS.steps;
const agent = scenario.build({ latencyMs: config.latencyMs, mark, log: effectLog(config.workDir, 'child') });
const runner = new Runner({ agent, appName: 'e2e', sessionStore: store });

/** @param {{ result(): Promise<import('@replan/core').RunResult> }} run */
async function report(run) {
  try {
    const r = await run.result();
    const error = r.error
      ? { name: r.error.name, message: r.error.message, kind: /** @type {{ kind?: string }} */ (r.error).kind }
      : undefined;
    say(`RESULT ${JSON.stringify({ status: r.status, output: r.output, error })}`);
  } catch (e) {
    say(`RESULT ${JSON.stringify({ status: 'rejected', error: { name: /** @type {Error} */ (e).name, message: String(e) } })}`);
  }
}

await report(runner.run({ userId: 'u1', sessionId: config.sessionId, input: scenario.input }));
const lines = createInterface({ input: process.stdin });
for await (const line of lines) {
  if (line.trim() !== 'resume') continue;
  await report(runner.resume({ userId: 'u1', sessionId: config.sessionId }));
  break;
}
lines.close();
await postgres.close();
