import { describe, expect, it } from 'vitest';
import type { RunOptions } from '@replan/core';
import { ScriptedModel } from '@replan/core/testing';
import { createExecutor, createPlanExecuteAgent, createPlanner, createReplanner } from '@replan/planexecute';
import { collect, respondCall, runnerFor } from './support.js';
import { graphCall } from './graph-support.js';

type Limits = NonNullable<RunOptions['limits']>;

/**
 * Six independent graph steps, three at a time, each answering with ~500 tokens after 20 ms (so
 * their calls overlap); usage measured as the budget estimates it (about 4 characters a token).
 */
function fanOut() {
  const ids = ['a', 'b', 'c', 'd', 'e', 'f'];
  const planner = new ScriptedModel({
    responses: [graphCall(...ids.map((id): [string, string, string[]] => [id, `task ${id}`, []]))],
    usage: 'measured',
  });
  const executor = new ScriptedModel({ respond: () => `found ${'r'.repeat(2000)}`, latencyMs: 20, usage: 'measured' });
  const replanner = new ScriptedModel({ respond: () => respondCall('from what was found'), usage: 'measured' });
  const agent = createPlanExecuteAgent({
    mode: 'graph',
    planner: createPlanner({ model: planner }),
    executor: createExecutor({ model: executor }),
    replanner: createReplanner({ model: replanner }),
    stepConcurrency: 3,
  });
  return { executor, ...runnerFor(agent) };
}

const spent = (r: { usage: { inputTokens: number; outputTokens: number } }) => r.usage.inputTokens + r.usage.outputTokens;

describe('hard limits with parallel graph steps', () => {
  it("'stop': steps running at once never take the run past maxTokens (each call in flight holds what it may spend)", async () => {
    const needed = spent((await collect(fanOut().runner.run({ userId: 'u', input: 'go' }))).result);
    for (const share of [0.3, 0.5, 0.8]) {
      const limit = Math.floor(needed * share);
      const h = fanOut();
      const { result } = await collect(h.runner.run({ userId: 'u', input: 'go', limits: { maxTokens: limit } }));
      expect(result.status).toBe('budget_exceeded');
      expect(spent(result)).toBeLessThanOrEqual(limit);
      expect(result.error).toMatchObject({ budget: 'maxTokens', limit });
      // A step refused only for what the others in flight may spend waits for them, so the budget is used,
      // not given up at the first overlap (that stopped after one step's call, ~1,250 tokens).
      expect(h.executor.calls).toBeGreaterThanOrEqual(3);
    }
  });

  it("'answer': the same runs answer, and never pass the limit", async () => {
    const needed = spent((await collect(fanOut().runner.run({ userId: 'u', input: 'go' }))).result);
    for (const share of [0.6, 0.8]) {
      // A reserve of its own: the answer's prompt carries up to six ~500-token results, more than the default (1.5× the plan call).
      const limits: Limits = { maxTokens: Math.floor(needed * share), onExhausted: 'answer', reserve: { tokens: 3500 } };
      const { result } = await collect(fanOut().runner.run({ userId: 'u', input: 'go', limits }));
      expect(result).toMatchObject({ status: 'completed', output: 'from what was found', partial: true });
      expect(spent(result)).toBeLessThanOrEqual(limits.maxTokens as number);
    }
  });
});
