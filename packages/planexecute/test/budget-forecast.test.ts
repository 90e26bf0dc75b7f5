import { afterEach, describe, expect, it } from 'vitest';
import { InMemorySessionStore, tool } from '@replan/core';
import { z } from 'zod';
import { callTools } from '@replan/core/testing';
import type { PlanReviewPayload } from '@replan/planexecute';
import { renderRun } from '@replan/planexecute/terminal';
import { collect, planCall, respondCall } from './support.js';
import { processOn, removeStores, reviewOf } from './review-support.js';
import { diffByContent, diffById } from '../src/review/plan-diff.js';

afterEach(removeStores);

function capture() {
  let text = '';
  const write = (t: string) => {
    text += t;
  };
  return { out: { write }, lines: () => text.split('\n') };
}

const limits = { maxModelCalls: 10, maxTokens: 5000, onExhausted: 'answer', reserve: { tokens: 1000 } } as const;

describe('plan review: the forecast against the budget', () => {
  it('linear: the review payload sums the steps estimates against what is left minus the reserve; renderRun shows it', async () => {
    const store = new InMemorySessionStore();
    const estimated = planCall(['find a', 'find b', 'add them'], { estimates: [{ tokens: 800, modelCalls: 2 }, { tokens: 900 }] });
    const p = processOn(store, { planner: [estimated] }, { review: { plan: true } });
    const { out, lines } = capture();
    const result = await renderRun(p.runner.run({ userId: 'u', input: 'a + b?', limits }), { out });
    const payload = reviewOf(result).payload as PlanReviewPayload;
    // the planner's call (10 + 5 tokens, 1 call) is spent; 1 call and 1000 tokens are the reserve
    expect(payload.forecast).toEqual({
      estimate: { tokens: 1700, modelCalls: 2 },
      available: { tokens: 3985, modelCalls: 8 },
      fits: true,
      unestimated: 1,
      steps: 3,
    });
    expect(lines()).toContain(
      '│   forecast ~1700 tokens of 3985 available, ~2 model calls of 8 available (1 of 3 steps without an estimate)',
    );
  });

  it('graph: a plan over budget is marked; without limits there is no forecast', async () => {
    const store = new InMemorySessionStore();
    const over = callTools({
      name: 'plan',
      args: {
        steps: [
          { id: 'a', task: 'task a', dependsOn: [], estimate: { tokens: 3000 } },
          { id: 'b', task: 'task b', dependsOn: ['a'], estimate: { tokens: 2000 } },
        ],
      },
    });
    const p = processOn(store, { planner: [over] }, { review: { plan: true }, mode: 'graph' });
    const { out, lines } = capture();
    const result = await renderRun(p.runner.run({ userId: 'u', input: 'go', limits }), { out });
    const payload = reviewOf(result).payload as PlanReviewPayload;
    expect(payload.forecast).toMatchObject({ estimate: { tokens: 5000 }, fits: false, unestimated: 0 });
    expect(lines().some((l) => l.includes('forecast: over budget ~5000 tokens of 3985 available'))).toBe(true);

    const free = processOn(new InMemorySessionStore(), { planner: [over] }, { review: { plan: true }, mode: 'graph' });
    const plain = (await collect(free.runner.run({ userId: 'u', input: 'go' }))).result;
    expect((reviewOf(plain).payload as PlanReviewPayload).forecast).toBeUndefined();
  });

  it('grants on (linear): estimates beside the steps and on a step object both reach the forecast', async () => {
    const store = new InMemorySessionStore();
    const steps = ['find a', { task: 'pay ann', tools: ['pay'], estimate: { tokens: 500 } }, 'add them'];
    const estimated = planCall(steps, { estimates: [{ tokens: 800, modelCalls: 2 }] });
    const pay = tool({ name: 'pay', description: 'Pays', parameters: z.object({}), needsApproval: true, execute: () => 'paid' });
    const p = processOn(store, { planner: [estimated] }, { review: { plan: true, grants: true }, tools: [pay] });
    const result = await p.runner.run({ userId: 'u', input: 'a + b?', limits }).result();
    const payload = reviewOf(result).payload as PlanReviewPayload;
    expect(payload.forecast).toMatchObject({ estimate: { tokens: 1300, modelCalls: 2 }, fits: true, unestimated: 1, steps: 3 });
  });

  it('grants on (graph): step estimates reach the forecast', async () => {
    const store = new InMemorySessionStore();
    const pay = tool({ name: 'pay', description: 'Pays', parameters: z.object({}), needsApproval: true, execute: () => 'paid' });
    const steps = [
      { id: 'a', task: 'pay ann', dependsOn: [], tools: ['pay'], estimate: { tokens: 700 } },
      { id: 'b', task: 'tell ann', dependsOn: ['a'], estimate: { tokens: 300, modelCalls: 1 } },
    ];
    const p = processOn(
      store,
      { planner: [callTools({ name: 'plan', args: { steps } })] },
      { mode: 'graph', review: { plan: true, grants: true }, tools: [pay] },
    );
    const result = await p.runner.run({ userId: 'u', input: 'pay', limits }).result();
    expect((reviewOf(result).payload as PlanReviewPayload).forecast).toMatchObject({
      estimate: { tokens: 1000, modelCalls: 1 },
      unestimated: 0,
    });
  });

  it('renderRun marks a partial answer and lists the steps not run', async () => {
    const p = processOn(new InMemorySessionStore(), {
      planner: [planCall(['find a', 'find b'])],
      executor: ['a is 1'],
      replanner: [respondCall('a is 1, b unknown')],
    });
    const { out, lines } = capture();
    const result = await renderRun(p.runner.run({ userId: 'u', input: 'go', limits: { maxModelCalls: 3, onExhausted: 'answer' } }), {
      out,
    });
    expect(result).toMatchObject({ partial: true, notRun: ['find b'] });
    expect(lines()).toContain('   partial: the budget ran low; not run: find b');
  });

  it('a revision that only re-estimates a step changes nothing in the review diff', () => {
    const step = { id: 'b', task: 'task b', dependsOn: [], estimate: { tokens: 100 } };
    expect(diffById([step], [{ ...step, estimate: { tokens: 900 } }], new Map())).toEqual({ added: [], removed: [], changed: [] });
    expect(diffById([step], [{ ...step, task: 'task b, again' }], new Map()).changed).toHaveLength(1);
    expect(diffByContent([{ task: 'x', estimate: { tokens: 1 } }], [{ task: 'x' }])).toEqual({ added: [], removed: [], changed: [] });
  });
});
