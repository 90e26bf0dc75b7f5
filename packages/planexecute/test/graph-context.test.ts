import { describe, expect, it } from 'vitest';
import { messageText, type ModelRequest } from '@replan/core';
import { PLAN_EXECUTE_META, type ContextPolicy, type ContextPolicyInfo } from '@replan/planexecute';
import { estimateTokens } from '../src/base/context-policy.js';
import { collect, harness, planCall, respondCall } from './support.js';
import { graphCall, graphHarness, taskOf } from './graph-support.js';

const long = (id: number) => `result ${id}: ${'x'.repeat(400)}`;
const policies: ContextPolicy[] = ['full', 'referenced', { kind: 'summarized', maxTokens: 200 }];
const promptOf = (requests: readonly ModelRequest[], task: string) =>
  messageText(requests.find((r) => taskOf(r) === task)?.messages.at(-1));

/** A chain of 8 steps with long results, each depending on the one before. */
async function chain(policy: ContextPolicy) {
  const steps = Array.from({ length: 8 }, (_, i): [string, string, string[]] => [String(i + 1), `task ${i + 1}`, i ? [String(i)] : []]);
  const h = graphHarness({
    planner: [graphCall(...steps)],
    steps: Object.fromEntries(steps.map(([id]) => [`task ${id}`, [long(Number(id))]])),
    replanner: [respondCall('done')],
    contextPolicy: policy,
    replannerPolicy: policy,
  });
  const { events, result } = await collect(h.runner.run({ userId: 'u', input: 'go' }));
  expect(result.status).toBe('completed');
  return { h, events, last: promptOf(h.steps.requests, 'task 8') };
}

describe('contextPolicy', () => {
  it('bounds what a graph step and the replanner see, and records the policy in the events', async () => {
    const [full, referenced, summarized] = await Promise.all([
      chain('full'),
      chain('referenced'),
      chain({ kind: 'summarized', maxTokens: 200 }),
    ]);
    for (let i = 1; i <= 7; i++) expect(full.last).toContain(`result ${i}:`);
    expect(referenced.last).toContain(long(7));
    expect(referenced.last).not.toContain('result 6:');
    // summarized: the dependency verbatim, older results within 200 tokens, the rest left out (and said so)
    expect(summarized.last).toContain(long(7));
    expect(summarized.last).toContain('(summarized: ');
    expect(summarized.last).toMatch(/older step result\(s\) not shown/);
    expect(estimateTokens(summarized.last) - estimateTokens(referenced.last)).toBeLessThanOrEqual(200 + 40);
    expect(estimateTokens(referenced.last)).toBeLessThan(estimateTokens(summarized.last));
    expect(estimateTokens(summarized.last)).toBeLessThan(estimateTokens(full.last));

    const infoOf = (events: typeof full.events, tag: string) =>
      events.filter((e) => e.meta?.[PLAN_EXECUTE_META] === tag).map((e) => e.meta?.contextPolicy as ContextPolicyInfo);
    const step8 = (events: typeof full.events) => infoOf(events, 'step-result').at(-1);
    expect(step8(full.events)).toMatchObject({ kind: 'full', verbatim: 7, summarized: 0, omitted: 0 });
    expect(step8(referenced.events)).toMatchObject({ kind: 'referenced', verbatim: 1, omitted: 6 });
    expect(step8(summarized.events)).toMatchObject({ kind: 'summarized', maxTokens: 200, verbatim: 2, summarized: 1, omitted: 4 });
    expect(step8(summarized.events)?.summarized).toBeGreaterThan(0);
    // the replanner's decision event carries its own view: referenced shows the graph's output (step 8) only
    expect(infoOf(referenced.events, 'answer')[0]).toMatchObject({ kind: 'referenced', verbatim: 1, omitted: 7 });
    expect(messageText(referenced.h.replanner.requests[0]?.messages.at(-1))).toContain(long(8));
    expect(messageText(referenced.h.replanner.requests[0]?.messages.at(-1))).not.toContain('result 7:');
  });

  it('delivers a needle from step 1 to step 6 under every policy, in both modes', async () => {
    for (const policy of policies) {
      const ids = ['1', '2', '3', '4', '5', '6'];
      const graph = graphHarness({
        planner: [
          graphCall(
            ['1', 'find the code', []],
            ...ids.slice(1, 5).map((id): [string, string, string[]] => [id, `task ${id}`, [String(Number(id) - 1)]]),
            ['6', 'report the code', ['5', '1']],
          ),
        ],
        steps: {
          'find the code': ['The code is NEEDLE-42.'],
          'task 2': [long(2)],
          'task 3': [long(3)],
          'task 4': [long(4)],
          'task 5': [long(5)],
          'report the code': ['NEEDLE-42'],
        },
        replanner: [respondCall('NEEDLE-42')],
        contextPolicy: policy,
      });
      await collect(graph.runner.run({ userId: 'u', input: 'go' }));
      expect(promptOf(graph.steps.requests, 'report the code')).toContain('NEEDLE-42');

      const linearSteps = ['find the code', 'task 2', 'task 3', 'task 4', 'task 5', 'report the code from $1'];
      const linear = harness({
        planner: [planCall(linearSteps)],
        executor: ['The code is NEEDLE-42.', long(2), long(3), long(4), long(5), 'NEEDLE-42'],
        replanner: [...[1, 2, 3, 4, 5].map((k) => planCall(linearSteps.slice(k))), respondCall('NEEDLE-42')],
        contextPolicy: policy,
      });
      expect((await collect(linear.runner.run({ userId: 'u', input: 'go' }))).result.status).toBe('completed');
      expect(lastStepPrompt(linear.executor.requests)).toContain('## YOUR STEP\nreport the code from $1');
      expect(lastStepPrompt(linear.executor.requests)).toContain('NEEDLE-42');
      if (policy === 'referenced') expect(lastStepPrompt(linear.executor.requests)).not.toContain('result 3:');
    }
  });

  it('linear referenced shows the previous step and the $n it names; the meta says so', async () => {
    const { createExecutor, createPlanExecuteAgent, createPlanner, createReplanner } = await import('@replan/planexecute');
    const { ScriptedModel } = await import('@replan/core/testing');
    const { Runner } = await import('@replan/core');
    const executor = new ScriptedModel({ responses: ['r1', 'r2', 'r3'] });
    const agent = createPlanExecuteAgent({
      planner: createPlanner({ model: new ScriptedModel({ responses: [planCall(['s1', 's2', 's3'])] }) }),
      executor: createExecutor({ model: executor, contextPolicy: 'referenced' }),
      replanner: createReplanner({
        model: new ScriptedModel({ responses: [planCall(['s2', 's3 with $1']), planCall(['s3 with $1']), respondCall('ok')] }),
        contextPolicy: 'referenced',
      }),
    });
    const { events } = await collect(new Runner({ agent, appName: 'a' }).run({ userId: 'u', input: 'go' }));
    const third = messageText(executor.requests[2]?.messages.at(-1));
    expect(third).toContain('1. Step: s1\n   Result: r1');
    expect(third).toContain('2. Step: s2\n   Result: r2');
    const second = messageText(executor.requests[1]?.messages.at(-1));
    expect(second).toContain('Result: r1');
    const infos = events.filter((e) => e.meta?.[PLAN_EXECUTE_META] === 'step-result').map((e) => e.meta?.contextPolicy);
    expect(infos).toEqual([
      { kind: 'referenced', verbatim: 0, summarized: 0, omitted: 0, tokens: 0 },
      expect.objectContaining({ kind: 'referenced', verbatim: 1, omitted: 0 }),
      expect.objectContaining({ kind: 'referenced', verbatim: 2, omitted: 0 }),
    ]);
  });
});

const lastStepPrompt = (requests: readonly ModelRequest[]) => messageText(requests.at(-1)?.messages.at(-1));
