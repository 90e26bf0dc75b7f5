import { describe, expect, it } from 'vitest';
import { Runner } from '@replan/core';
import { callTools, ScriptedModel } from '@replan/core/testing';
import { createExecutor, createPlanExecuteAgent, createPlanner, createReplanner } from '@replan/planexecute';
import { graphCall, graphHarness } from './graph-support.js';
import { respondCall } from './support.js';

describe('usage and cost per plan step', () => {
  it('graph mode: RunResult breaks tokens, calls and cost down by step id and by agent path', async () => {
    const h = graphHarness({
      planner: [graphCall(['a', 'task a', []], ['b', 'task b', []])],
      steps: { 'task a': ['A'], 'task b': [callTools({ name: 'noop', args: {} }), 'B'] },
      replanner: [respondCall('done')],
      tools: [],
    });
    const prices = { 'task-model': { inputPerMillion: 1_000_000, outputPerMillion: 2_000_000 } }; // 10 + 10 = 20 per call
    const runner = new Runner({ agent: h.runner.agent, appName: 'pe-test', prices });
    const result = await runner.run({ userId: 'u', input: 'go' }).result();
    expect(result.status).toBe('completed');
    const { byLabel: byStep, byAgent } = result.breakdown;
    expect(Object.keys(byStep).sort()).toEqual(['a', 'b']);
    expect(byStep.a).toMatchObject({ modelCalls: 1, usage: { inputTokens: 10, outputTokens: 5 }, cost: 20 });
    expect(byStep.b).toMatchObject({ modelCalls: 2, usage: { inputTokens: 20, outputTokens: 10 }, cost: 40 });
    expect(byStep.a!.latencyMs).toBeGreaterThanOrEqual(0);
    expect(Object.keys(byAgent).sort()).toEqual([
      'plan_execute/execute_replan/executor/a',
      'plan_execute/execute_replan/executor/b',
      'plan_execute/execute_replan/replanner',
      'plan_execute/planner',
    ]);
    expect(byAgent['plan_execute/planner']).toMatchObject({ modelCalls: 1, cost: 0 }); // planner-model has no price
    expect(result.cost).toBe(60);
    const sum = Object.values(byAgent).reduce((n, b) => n + b.modelCalls, 0);
    expect(sum).toBe(result.modelCalls);
  });

  it('linear mode: steps are numbered as the plan runs them', async () => {
    const planner = new ScriptedModel({ id: 'p', responses: [callTools({ name: 'plan', args: { steps: ['one', 'two'] } })] });
    const executor = new ScriptedModel({ id: 'x', responses: ['did one', 'did two'] });
    const replanner = new ScriptedModel({
      id: 'r',
      responses: [callTools({ name: 'plan', args: { steps: ['two'] } }), respondCall('both done')],
    });
    const agent = createPlanExecuteAgent({
      planner: createPlanner({ model: planner }),
      executor: createExecutor({ model: executor, tools: [] }),
      replanner: createReplanner({ model: replanner }),
    });
    const result = await new Runner({ agent, appName: 'x' }).run({ userId: 'u', input: 'go' }).result();
    expect(result.status).toBe('completed');
    expect(Object.keys(result.breakdown.byLabel)).toEqual(['1', '2']);
    expect(result.breakdown.byLabel['1']).toMatchObject({ modelCalls: 1, usage: { inputTokens: 10, outputTokens: 5 } });
  });
});
