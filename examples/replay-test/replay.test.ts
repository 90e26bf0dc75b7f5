/**
 * The example as a Vitest test: a stored run replayed offline, in CI, with no model and no tool
 * side effects. In a real project, the recording is a production session pulled from the store
 * (`store.get(...)`) and kept as a JSON fixture (see docs/testing-and-evals.md).
 * Run: pnpm exec vitest run --project examples
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FileSessionStore, type ReplayError, Runner, type Session } from '@replan/core';
import { ReplayModel, recordedToolCalls, replayTools } from '@replan/core/testing';
import { priceTool, scriptedModels, tripAgent } from './trip-agent.js';

const input = 'What does the Lisbon trip cost?';
const dir = mkdtempSync(join(tmpdir(), 'replan-replay-example-test-'));
let session: Session;

beforeAll(async () => {
  // The recording (here made on the spot; usually a stored session).
  const runner = new Runner({
    agent: tripAgent(scriptedModels(), [priceTool().price]),
    appName: 'trips',
    sessionStore: new FileSessionStore({ dir }),
  });
  const recorded = await runner.run({ userId: 'ana', input }).result();
  const stored = await new FileSessionStore({ dir }).get({ appName: 'trips', userId: 'ana', id: recorded.sessionId });
  if (!stored) throw new Error('no recorded session');
  session = stored;
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The trip agent on the recording: every role answered by the replay, tools from the recording. */
function replayed(instruction?: string) {
  const model = ReplayModel.fromSession(session);
  const tools = priceTool();
  const agent = tripAgent({ planner: model, executor: model, replanner: model }, replayTools(session, [tools.price]), instruction);
  return { model, calls: tools.calls, runner: new Runner({ agent, appName: 'trips' }) };
}

describe('the trip agent, replayed from a stored run', () => {
  it('gives the recorded answer with the recorded tool calls, offline', async () => {
    const { model, calls, runner } = replayed();
    const result = await runner.run({ userId: 'ana', input }).result();
    expect(result.output).toBe('The trip costs 730 EUR.');
    expect(calls).toEqual([]); // no booking API was called
    expect(model.finished).toBe(true);
    const trajectory = (events: Session['events']) =>
      recordedToolCalls(events)
        .map((c) => `${c.name} ${JSON.stringify(c.args)}`)
        .sort();
    expect(trajectory((await runner.sessionStore.get({ appName: 'trips', userId: 'ana', id: result.sessionId }))?.events ?? [])).toEqual(
      trajectory(session.events),
    );
  });

  it('fails loud when the executor prompt changes', async () => {
    const result = await replayed('Round every price.').runner.run({ userId: 'ana', input }).result();
    expect(result.error).toMatchObject({ name: 'ReplayError', kind: 'mismatch' });
    expect((result.error as ReplayError).differences).toContain('the system prompt / instruction differs');
  });
});
