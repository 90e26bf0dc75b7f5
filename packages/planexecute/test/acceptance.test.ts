import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { callTools } from '@replan/core/testing';
import {
  createExecutor,
  createPlanExecuteAgent,
  createPlanner,
  createReplanner,
  SessionKeys,
  type ExecutorInput,
} from '@replan/planexecute';
import { InMemorySessionStore, Runner, toolResultsOf } from '@replan/core';
import { ScriptedModel } from '@replan/core/testing';
import { collect, countingTool, harness, kindsOf, lastText, planCall, respondCall, stepPairs } from './support.js';

describe('plan–execute–replan acceptance', () => {
  it('plans 3 steps, executes each once, then answers', async () => {
    const h = harness({
      planner: [planCall(['find A', 'find B', 'add them'])],
      executor: ['A is 2', 'B is 3', 'sum is 5'],
      replanner: [planCall(['find B', 'add them']), planCall(['add them']), respondCall('The answer is 5.')],
    });
    const { events, result } = await collect(h.runner.run({ userId: 'u', input: 'What is A + B?' }));
    expect(result.status).toBe('completed');
    expect(result.output).toBe('The answer is 5.');
    expect(h.planner.calls).toBe(1);
    expect(h.executor.calls).toBe(3);
    expect(h.replanner.calls).toBe(3);
    // each execution ran the first step of the plan in force
    expect(h.executor.requests.map((r) => lastText(r).split('## YOUR STEP\n')[1])).toEqual(['find A', 'find B', 'add them']);
    const state = await h.state(result.sessionId);
    expect(stepPairs(state)).toEqual([
      ['find A', 'A is 2'],
      ['find B', 'B is 3'],
      ['add them', 'sum is 5'],
    ]);
    expect(kindsOf(events).map((k) => k.kind)).toEqual([
      'plan',
      'step-result',
      'revised-plan',
      'step-result',
      'revised-plan',
      'step-result',
      'answer',
    ]);
    // the answer is the text, never the tool-call JSON; the replanner's prompt saw all results
    const answer = events.find((e) => e.actions?.final);
    expect(answer?.message?.content).toEqual([{ type: 'text', text: 'The answer is 5.' }]);
    expect(answer?.actions?.exitLoop).toBe(true);
    expect(lastText(h.replanner.requests[2])).toContain('Result: sum is 5');
  });

  it('replaces the plan when the replanner revises it, and records ExecutedSteps exactly', async () => {
    const h = harness({
      planner: [planCall(['look up the city', 'check the weather there', 'write a summary'])],
      executor: ['The city is Oslo', 'It rains in Oslo', 'Bring an umbrella'],
      replanner: [
        planCall(['check the weather in Oslo', 'advise on clothing']),
        planCall(['advise on clothing']),
        respondCall('Bring an umbrella in Oslo.'),
      ],
    });
    const { result } = await collect(h.runner.run({ userId: 'u', input: 'Plan my trip' }));
    expect(result.status).toBe('completed');
    const state = await h.state(result.sessionId);
    expect(stepPairs(state)).toEqual([
      ['look up the city', 'The city is Oslo'],
      ['check the weather in Oslo', 'It rains in Oslo'],
      ['advise on clothing', 'Bring an umbrella'],
    ]);
    // the last written plan is kept as written: the old steps are gone
    expect(state[SessionKeys.Plan]).toEqual({ steps: ['advise on clothing'] });
    expect(lastText(h.executor.requests[1])).toContain('## YOUR STEP\ncheck the weather in Oslo');
    expect(lastText(h.executor.requests[1])).not.toContain('write a summary');
    expect(lastText(h.executor.requests[1])).toContain('Result: The city is Oslo');
  });

  it('carries a custom planSchema with extra fields to the executor as plain JSON', async () => {
    const planSchema = z.object({
      goal: z.string(),
      steps: z.array(z.object({ task: z.string(), tool: z.string() })),
    });
    const planner = new ScriptedModel({
      responses: [callTools({ name: 'plan', args: { goal: 'total', steps: [{ task: 'sum the numbers', tool: 'calc' }] } })],
    });
    const executorModel = new ScriptedModel({ responses: ['42'] });
    const replanner = new ScriptedModel({ responses: [respondCall('42')] });
    const seen: ExecutorInput[] = [];
    const agent = createPlanExecuteAgent({
      planner: createPlanner({ model: planner, planSchema }),
      executor: createExecutor({
        model: executorModel,
        buildInput: (input) => {
          seen.push(input);
          return [
            { role: 'user', content: [{ type: 'text', text: `do ${JSON.stringify(input.step)} for ${JSON.stringify(input.plan)}` }] },
          ];
        },
      }),
      replanner: createReplanner({ model: replanner, planSchema }),
    });
    const store = new InMemorySessionStore();
    const { result } = await collect(new Runner({ agent, appName: 'a', sessionStore: store }).run({ userId: 'u', input: 'add' }));
    expect(result.status).toBe('completed');
    expect(seen[0]?.plan).toEqual({ goal: 'total', steps: [{ task: 'sum the numbers', tool: 'calc' }] });
    expect(seen[0]?.step).toEqual({ task: 'sum the numbers', tool: 'calc' });
    expect(lastText(executorModel.requests[0])).toContain('"goal":"total"');
    // the plan tool's JSON Schema is the custom one
    expect(JSON.stringify(planner.requests[0]?.tools?.[0]?.parameters)).toContain('"goal"');
    const session = await store.get({ appName: 'a', userId: 'u', id: result.sessionId });
    expect(JSON.parse(JSON.stringify(session?.state[SessionKeys.ExecutedSteps]))).toEqual([
      { step: { task: 'sum the numbers', tool: 'calc' }, result: '42' },
    ]);
  });

  it("shows the executor's tool calls as events tagged with their step", async () => {
    const search = countingTool('search');
    const h = harness({
      planner: [planCall(['search cats', 'search dogs'])],
      executor: [
        callTools({ name: 'search', args: { q: 'cats' } }),
        'cats found',
        callTools({ name: 'search', args: { q: 'dogs' } }),
        'dogs found',
      ],
      replanner: [planCall(['search dogs']), respondCall('both found')],
      tools: [search.tool],
    });
    const { events, result } = await collect(h.runner.run({ userId: 'u', input: 'find pets' }));
    expect(result.status).toBe('completed');
    expect(search.calls).toEqual(['cats', 'dogs']);
    const progress = kindsOf(events).filter((k) => k.kind === 'step-progress');
    const toolEvents = events.filter((e) =>
      e.message?.content.some((b) => (b.type === 'tool_call' || b.type === 'tool_result') && b.name === 'search'),
    );
    expect(toolEvents.map((e) => e.author)).toEqual(['executor', 'executor', 'executor', 'executor']);
    expect(toolEvents.map((e) => [e.meta?.step, e.meta?.stepNumber])).toEqual([
      ['search cats', 1],
      ['search cats', 1],
      ['search dogs', 2],
      ['search dogs', 2],
    ]);
    expect(progress).toHaveLength(4);
    expect(toolResultsOf(toolEvents[3]?.message)[0]?.output).toBe('search:dogs');
    expect(toolEvents[0]?.path).toBe('plan_execute/execute_replan/executor');
  });

  it('resumes a saved session after the planner finished without calling the planner again', async () => {
    const store = new InMemorySessionStore();
    const first = harness({ planner: [planCall(['step one', 'step two'])], store });
    // the budget stops the run right after the planner's call, with the plan stored
    const stopped = await collect(first.runner.run({ userId: 'u', input: 'go', limits: { maxModelCalls: 1 } }));
    expect(stopped.result.status).toBe('budget_exceeded');
    expect((await first.state(stopped.result.sessionId))[SessionKeys.Plan]).toEqual({ steps: ['step one', 'step two'] });

    // a new process: new agents and models over the same stored session
    const second = harness({
      planner: [],
      executor: ['one done', 'two done'],
      replanner: [planCall(['step two']), respondCall('all done')],
      store,
    });
    const { result } = await collect(second.runner.resume({ userId: 'u', sessionId: stopped.result.sessionId }));
    expect(result.status).toBe('completed');
    expect(result.output).toBe('all done');
    expect(second.planner.calls).toBe(0);
    expect(second.executor.calls).toBe(2);
    expect(stepPairs(await second.state(result.sessionId))).toEqual([
      ['step one', 'one done'],
      ['step two', 'two done'],
    ]);
  });

  it('builds all three agents in the one-call form, listing the tools for the planner', async () => {
    const search = countingTool('search');
    const model = new ScriptedModel({
      responses: [planCall(['search x']), callTools({ name: 'search', args: { q: 'x' } }), '{"found": true}', respondCall('found')],
    });
    const agent = createPlanExecuteAgent({ model, tools: [search.tool], maxIterations: 3 });
    const { result } = await collect(new Runner({ agent, appName: 'a' }).run({ userId: 'u', input: 'find x' }));
    expect(result.status).toBe('completed');
    expect(result.output).toBe('found');
    expect(search.calls).toEqual(['x']);
    expect(model.requests[0]?.messages[0]?.content[0]).toMatchObject({ text: expect.stringContaining('- search: search tool') });
    expect(model.requests[1]?.tools?.map((t) => t.name)).toEqual(['search']);
  });

  it('stores a structured step result when the executor has an outputSchema', async () => {
    const store = new InMemorySessionStore();
    const agent = createPlanExecuteAgent({
      planner: createPlanner({ model: new ScriptedModel({ responses: [planCall(['count'])] }) }),
      executor: createExecutor({
        model: new ScriptedModel({ responses: ['{"count": 3}'] }),
        outputSchema: z.object({ count: z.number() }),
      }),
      replanner: createReplanner({ model: new ScriptedModel({ responses: [respondCall('3')] }) }),
    });
    const { result } = await collect(new Runner({ agent, appName: 'a', sessionStore: store }).run({ userId: 'u', input: 'count' }));
    const session = await store.get({ appName: 'a', userId: 'u', id: result.sessionId });
    expect(session?.state[SessionKeys.ExecutedSteps]).toEqual([{ step: 'count', result: '{"count": 3}', structured: { count: 3 } }]);
  });
});
