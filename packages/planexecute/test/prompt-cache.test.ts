import { describe, expect, it } from 'vitest';
import { messageText, promptCache, type ModelRequest } from '@replan/core';
import { ScriptedModel } from '@replan/core/testing';
import { createPlanExecuteAgent } from '@replan/planexecute';
import { collect, harness, planCall, respondCall, runnerFor } from './support.js';
import { graphCall, graphHarness } from './graph-support.js';

/** Everything a request sends, in wire order, as one string: what a prefix cache compares. */
const wire = (r: ModelRequest | undefined) => JSON.stringify([r?.tools ?? [], r?.messages.map((m) => [m.role, messageText(m)])]);

function commonPrefix(a: string, b: string): string {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return a.slice(0, i);
}

describe('plan–execute prompt caching', () => {
  it('with promptCache(), every part sends one cache key per session and role', async () => {
    const h = harness({
      middleware: [promptCache()],
      planner: [planCall(['a', 'b'])],
      executor: ['result A', 'result B'],
      replanner: [planCall(['b']), respondCall('done')],
    });
    const { result } = await collect(h.runner.run({ userId: 'u', sessionId: 'sess-1', input: 'go' }));
    expect(result.status).toBe('completed');
    expect(h.planner.requests.map((r) => r.cache)).toEqual([{ key: 'planner:sess-1' }]);
    expect(h.executor.requests.map((r) => r.cache)).toEqual([{ key: 'executor:sess-1' }, { key: 'executor:sess-1' }]);
    expect(h.replanner.requests.map((r) => r.cache)).toEqual([{ key: 'replanner:sess-1' }, { key: 'replanner:sess-1' }]);
  });

  it('without middleware no part sends a cache hint; a retention reaches every role', async () => {
    const run = async (retention?: 'long') => {
      const models = [planCall(['a']), 'result A', respondCall('done')].map((reply) => new ScriptedModel({ responses: [reply] }));
      const [plannerModel, executorModel, replannerModel] = models as [ScriptedModel, ScriptedModel, ScriptedModel];
      const middleware = retention ? [promptCache({ retention })] : [];
      const agent = createPlanExecuteAgent({ model: plannerModel, plannerModel, executorModel, replannerModel, middleware });
      await collect(runnerFor(agent).runner.run({ userId: 'u', sessionId: 's', input: 'go' }));
      return models.map((m) => m.requests[0]?.cache);
    };
    expect(await run()).toEqual([undefined, undefined, undefined]);
    expect(await run('long')).toEqual([
      { key: 'planner:s', retention: 'long' },
      { key: 'executor:s', retention: 'long' },
      { key: 'replanner:s', retention: 'long' },
    ]);
  });

  it('linear: the results come before the plan, so one step’s prompt is a prefix of the next’s up to the results they share', async () => {
    const results = ['RESULT-ONE '.repeat(40), 'RESULT-TWO '.repeat(40), 'RESULT-THREE'];
    const h = harness({
      middleware: [promptCache()],
      planner: [planCall(['one', 'two', 'three'])],
      executor: results,
      replanner: [planCall(['two', 'three']), planCall(['three']), respondCall('done')],
    });
    await collect(h.runner.run({ userId: 'u', input: 'go' }));
    const [, second, third] = h.executor.requests.map(wire) as [string, string, string];
    // The plan is rewritten by every revision, the results only grow: the shared prefix holds result one.
    const shared = commonPrefix(second, third);
    expect(shared).toContain('RESULT-ONE');
    expect(third.indexOf('RESULT-TWO')).toBeLessThan(third.indexOf('## PLAN'));
    // The replanner's turns share the results before the plan they revise.
    const [r1, r2] = h.replanner.requests.map(wire) as [string, string];
    expect(commonPrefix(r1, r2)).toContain('RESULT-ONE');
  });

  it('graph: parallel steps send the same key and the same prefix: instruction, tools and objective, then their own task', async () => {
    const h = graphHarness({
      middleware: [promptCache()],
      planner: [graphCall(['a', 'search alpha', []], ['b', 'search beta', []], ['c', 'search gamma', []])],
      steps: { 'search alpha': ['A'], 'search beta': ['B'], 'search gamma': ['C'] },
      replanner: [respondCall('done')],
    });
    await collect(h.runner.run({ userId: 'u', sessionId: 'g-1', input: 'Compare three things.' }));
    const requests = h.steps.requests;
    expect(requests).toHaveLength(3);
    expect(new Set(requests.map((r) => r.cache?.key))).toEqual(new Set(['executor:g-1']));
    const heads = requests.map((r) => JSON.stringify([r.tools ?? [], r.messages.slice(0, -1)]));
    expect(new Set(heads).size).toBe(1);
    expect(requests.map((r) => messageText(r.messages.at(-1)))).toEqual(
      expect.arrayContaining([expect.stringContaining('search alpha'), expect.stringContaining('search beta')]),
    );
  });
});
