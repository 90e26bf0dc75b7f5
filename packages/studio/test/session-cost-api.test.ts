import { InMemorySessionStore, type ModelRequest, Runner } from '@replan/core';
import { callTools, ScriptedModel } from '@replan/core/testing';
import { createPlanExecuteAgent } from '@replan/planexecute';
import { afterEach, describe, expect, it } from 'vitest';
import { serveStudio, type StudioHandle } from '../src/index.js';
import type { SessionDigest } from '../web/src/wire-types.js';
import { rawRequest, tokenOf } from './support/http.js';

let studio: StudioHandle | undefined;
afterEach(async () => {
  await studio?.close();
  studio = undefined;
});

const isPlanner = (r: ModelRequest) => typeof r.toolChoice === 'object' && r.toolChoice.name === 'plan';
// 1000 in / 100 out per call at 2 and 10 per million: 0.003 a call.
const prices = { priced: { inputPerMillion: 2, outputPerMillion: 10 } };

/** Linear plan [A, B]; after A the replanner answers. Every call reports 1000 in / 100 out. */
async function storedSession(): Promise<{ store: InMemorySessionStore; runCost: number }> {
  const store = new InMemorySessionStore();
  const model = new ScriptedModel({
    id: 'priced',
    usage: { inputTokens: 1_000, outputTokens: 100 },
    respond: (request) => {
      if (isPlanner(request)) return callTools({ name: 'plan', args: { steps: ['A', 'B'] } });
      if (request.tools?.some((t) => t.name === 'respond')) return callTools({ name: 'respond', args: { response: 'done' } });
      return 'step result';
    },
  });
  const runner = new Runner({ agent: createPlanExecuteAgent({ model }), appName: 'costs', sessionStore: store, prices });
  const result = await runner.run({ userId: 'u', sessionId: 's', input: 'go' }).result();
  expect(result.status).toBe('completed');
  return { store, runCost: result.cost };
}

async function readDigest(): Promise<SessionDigest> {
  const url = new URL(studio!.url);
  const response = await rawRequest(`http://127.0.0.1:${url.port}/api/session?app=costs&user=u&id=s`, {
    headers: { 'x-replan-token': tokenOf(studio!.url) },
  });
  expect(response.status).toBe(200);
  return JSON.parse(response.body) as SessionDigest;
}

describe('session and step cost in the studio API', () => {
  it('given prices, each step that called the model has its cost and the session its total', async () => {
    const { store, runCost } = await storedSession();
    studio = await serveStudio({ store, prices });
    const digest = await readDigest();
    const steps = digest.revisions.at(-1)!.steps.filter((s) => s.modelCalls);
    expect(steps.length).toBeGreaterThan(0);
    for (const step of steps) expect(step.cost).toBeCloseTo(step.modelCalls! * 0.003, 12);
    // the session total covers planner and replanner calls too: what the run itself cost
    expect(digest.cost?.total).toBeCloseTo(runCost, 12);
    expect(digest.cost?.unpricedModelCalls).toBe(0);
  });

  it('without prices, tokens only; with a table lacking the model, calls are counted as unpriced', async () => {
    const { store } = await storedSession();
    studio = await serveStudio({ store });
    const plain = await readDigest();
    expect(plain.cost).toBeUndefined();
    expect(plain.revisions.at(-1)!.steps.some((s) => s.modelCalls && s.cost === undefined)).toBe(true);
    await studio.close();

    studio = await serveStudio({ store, prices: { other: { inputPerMillion: 1, outputPerMillion: 1 } } });
    const unpriced = await readDigest();
    expect(unpriced.cost).toMatchObject({ total: 0 });
    expect(unpriced.cost!.unpricedModelCalls).toBeGreaterThan(0);
  });
});
