import { describe, expect, it } from 'vitest';
import { BudgetExceededError, ConfigurationError, ReActAgent, Runner, SequentialAgent, userMessage } from '@replan/core';
import { callTools, ScriptedModel } from '@replan/core/testing';
import { createExecutor, createPlanExecuteAgent, createPlanner, createReplanner } from '@replan/planexecute';
import { scriptPlanExecute } from '@replan/planexecute/testing';
import { allText, collect, countingTool, harness, lastText, planCall, respondCall, runnerFor } from './support.js';

const threeSteps = planCall(['find a', 'find b', 'find c']);
const answer = { maxModelCalls: 4, onExhausted: 'answer' } as const;

describe("limits.onExhausted: 'answer' (linear plans)", () => {
  it('under the reserve no step starts; the replanner answers from the steps done: partial, notRun', async () => {
    const h = harness({
      planner: [threeSteps],
      executor: ['a is 1', 'b is 2'],
      replanner: [planCall(['find b', 'find c']), respondCall('a is 1; b and c unknown')],
    });
    const { result } = await collect(h.runner.run({ userId: 'u', input: 'go', limits: answer }));
    expect(result.status).toBe('completed');
    expect(result.output).toBe('a is 1; b and c unknown');
    expect(result.partial).toBe(true);
    expect(result.notRun).toEqual(['find b', 'find c']);
    expect(result.modelCalls).toBe(4); // planner, step 1, replanner, the answer: never past the limit
    expect(h.executor.calls).toBe(1); // "find b" did not start: one call left, the reserve
    const last = h.replanner.requests.at(-1);
    expect(last?.tools?.map((t) => t.name)).toEqual(['respond']);
    expect(last?.toolChoice).toEqual({ name: 'respond' });
    expect(lastText(last)).toMatch(/budget is used up[\s\S]*find b[\s\S]*find c/);
  });

  it('scriptPlanExecute: a replanner offered only respond answers from the steps that ran', async () => {
    const script = scriptPlanExecute({
      plan: { steps: ['find a', 'find b', 'find c'] },
      steps: { 'find a': 'a is 1', 'find b': 'b is 2', 'find c': 'c is 3' },
      answer: (results) => `found ${Object.values(results).join(', ')}`,
    });
    const agent = createPlanExecuteAgent({
      model: script.plannerModel,
      executorModel: script.executorModel,
      replannerModel: script.replannerModel,
    });
    const { result } = await collect(runnerFor(agent).runner.run({ userId: 'u', input: 'go', limits: answer }));
    expect(result).toMatchObject({ status: 'completed', output: 'found a is 1', partial: true, notRun: ['find b', 'find c'] });
  });

  it("the same run with 'stop' ends budget_exceeded without an answer", async () => {
    const h = harness({
      planner: [threeSteps],
      executor: ['a is 1', 'b is 2'],
      replanner: [planCall(['find b', 'find c']), respondCall('never asked')],
    });
    const { result } = await collect(h.runner.run({ userId: 'u', input: 'go', limits: { maxModelCalls: 4 } }));
    expect(result.status).toBe('budget_exceeded');
    expect(result.output).toBeUndefined();
    expect(result.partial).toBeUndefined();
  });

  it('a step stopped mid-way by the reserve is not run; its stored tool call stays in the log', async () => {
    const search = countingTool('search');
    const h = harness({
      planner: [planCall(['find a', 'find b'])],
      executor: [callTools({ name: 'search', args: { q: 'a' } }), 'never reached'],
      replanner: [respondCall('nothing found yet')],
      tools: [search.tool],
    });
    const { result } = await collect(h.runner.run({ userId: 'u', input: 'go', limits: { maxModelCalls: 3, onExhausted: 'answer' } }));
    expect(result).toMatchObject({ status: 'completed', output: 'nothing found yet', partial: true, notRun: ['find a', 'find b'] });
    expect(search.calls).toEqual(['a']);
    expect(h.executor.calls).toBe(1); // its second call was refused for the reserve
    expect(result.modelCalls).toBe(3);
  });

  it('the planner and replanner see the budget: limits, used, left and the reserve', async () => {
    const h = harness({ planner: [planCall(['find a'])], executor: ['a is 1'], replanner: [respondCall('a is 1')] });
    const { result } = await collect(h.runner.run({ userId: 'u', input: 'go', limits: { maxModelCalls: 10, onExhausted: 'answer' } }));
    expect(result.partial).toBeUndefined(); // enough budget: an ordinary answer
    const planner = allText(h.planner.requests[0]);
    expect(planner).toContain('## BUDGET');
    expect(planner).toContain('- model calls: limit 10, used 0, left 10, of which 1 is kept for the final answer');
    expect(lastText(h.replanner.requests[0])).toContain('- model calls: limit 10, used 2, left 8');
    // Without limits, the prompts are as before.
    const plain = harness({ planner: [planCall(['find a'])], executor: ['a is 1'], replanner: [respondCall('a is 1')] });
    await collect(plain.runner.run({ userId: 'u', input: 'go' }));
    expect(allText(plain.planner.requests[0])).not.toContain('BUDGET');
  });

  it('a custom buildInput gets the budget with the time figures the default prompt leaves out', async () => {
    const seen: unknown[] = [];
    const planner = new ScriptedModel({ responses: [planCall(['find a'])] });
    const agent = createPlanExecuteAgent({
      planner: createPlanner({
        model: planner,
        buildInput: (input) => {
          seen.push(input.budget);
          return [userMessage('plan it')];
        },
      }),
      executor: createExecutor({ model: new ScriptedModel({ responses: ['a is 1'] }) }),
      replanner: createReplanner({
        model: new ScriptedModel({ responses: [respondCall('a is 1')] }),
        buildInput: (input) => {
          seen.push(input.budget);
          return [userMessage('decide')];
        },
      }),
    });
    await collect(runnerFor(agent).runner.run({ userId: 'u', input: 'go', limits: { timeoutMs: 60_000, maxModelCalls: 9 } }));
    expect(seen).toHaveLength(2);
    expect(seen[0]).toMatchObject({ limits: { timeMs: 60_000, modelCalls: 9 }, used: { modelCalls: 0 }, onExhausted: 'stop' });
    const later = seen[1] as { used: { timeMs: number; modelCalls: number }; left: { timeMs: number } };
    expect(later.used.modelCalls).toBe(2);
    expect(later.used.timeMs + later.left.timeMs).toBe(60_000);
  });

  it('tokens: the answer is capped to what is left; overshoot past maxTokens is 0', async () => {
    const make = () => {
      const planner = new ScriptedModel({ responses: [planCall(['find a', 'find b', 'find c', 'find d'])], usage: 'measured' });
      const executor = new ScriptedModel({ respond: () => `a result ${'x'.repeat(400)}`, usage: 'measured' });
      const replanner = new ScriptedModel({
        respond: (request) =>
          request.tools?.some((t) => t.name === 'plan')
            ? planCall(['find b', 'find c', 'find d'])
            : respondCall(`partial ${'y'.repeat(800)}`),
        usage: 'measured',
      });
      const agent = createPlanExecuteAgent({
        planner: createPlanner({ model: planner }),
        executor: createExecutor({ model: executor }),
        replanner: createReplanner({ model: replanner }),
      });
      return { replanner, ...runnerFor(agent) };
    };
    // What the whole run needs, then half of it.
    const full = make();
    const needed = (await collect(full.runner.run({ userId: 'u', input: 'go' }))).result;
    const tokens = needed.usage.inputTokens + needed.usage.outputTokens;
    const half = make();
    const { result } = await collect(
      half.runner.run({ userId: 'u', input: 'go', limits: { maxTokens: Math.floor(tokens / 2), onExhausted: 'answer' } }),
    );
    expect(result).toMatchObject({ status: 'completed', partial: true });
    expect(result.usage.inputTokens + result.usage.outputTokens).toBeLessThanOrEqual(Math.floor(tokens / 2));
    expect(half.replanner.requests.at(-1)?.settings?.maxTokens).toBeGreaterThan(0);
  });

  it('bad input: a reserve at or over its limit, or for a limit not set, is a ConfigurationError naming both', async () => {
    const h = harness({ planner: [planCall(['find a'])], executor: ['a'], replanner: [respondCall('a')] });
    const refused = async (limits: object) =>
      h.runner
        .run({ userId: 'u', input: 'go', limits: limits as never })
        .result()
        .then(
          (r) => r.error,
          (e: unknown) => e,
        );
    const over = await refused({ maxTokens: 1000, onExhausted: 'answer', reserve: { tokens: 1500 } });
    expect(over).toBeInstanceOf(ConfigurationError);
    expect((over as Error).message).toMatch(/reserve\.tokens \(1500\).*maxTokens \(1000\)/);
    const unset = await refused({ maxModelCalls: 5, onExhausted: 'answer', reserve: { cost: 0.5 } });
    expect((unset as Error).message).toMatch(/reserve\.cost is 0\.5 but limits\.maxCost is not set/);
    const noAnswer = await refused({ maxModelCalls: 5, reserve: { modelCalls: 1 } });
    expect((noAnswer as Error).message).toMatch(/onExhausted is not 'answer'/);
    expect(h.planner.calls).toBe(0);
    const sessions = await h.store.list({ appName: 'pe-test', userId: 'u' });
    expect(sessions.sessions).toHaveLength(0); // refused before anything was stored
  });

  it("a plain ReActAgent refuses 'answer' with a ConfigurationError (it could only stop sooner)", async () => {
    const model = new ScriptedModel({ responses: ['hi'] });
    const runner = new Runner({ agent: new ReActAgent({ name: 'a', model }), appName: 'x' });
    const outcome = await runner
      .run({ userId: 'u', input: 'go', limits: { maxModelCalls: 3, onExhausted: 'answer' } })
      .result()
      .then(
        (r) => r.error,
        (e: unknown) => e,
      );
    expect(outcome).toBeInstanceOf(ConfigurationError);
    expect((outcome as Error).message).toMatch(/"a" is not one/);
    expect(model.calls).toBe(0);
  });

  it("a plan–execute agent inside a SequentialAgent: 'answer' is refused, naming it and what to do", async () => {
    const planner = new ScriptedModel({ responses: [planCall(['find a'])] });
    const research = createPlanExecuteAgent({ name: 'research', model: planner });
    const write = new ReActAgent({ name: 'write', model: new ScriptedModel({ responses: ['text'] }) });
    const pipeline = new SequentialAgent({ name: 'pipeline', subAgents: [research, write] });
    const outcome = await new Runner({ agent: pipeline, appName: 'x' })
      .run({ userId: 'u', input: 'go', limits: { maxModelCalls: 5, onExhausted: 'answer' } })
      .result()
      .then(
        (r) => r.error,
        (e: unknown) => e,
      );
    expect(outcome).toBeInstanceOf(ConfigurationError);
    expect((outcome as Error).message).toMatch(
      /"pipeline" only contains one \("research"\).*Run "research" as the Runner's agent with 'answer'.*or use onExhausted: 'stop'/,
    );
    expect(planner.calls).toBe(0);
  });

  it('a reserve stop is a BudgetExceededError with the reserve, when nothing can answer (the planner)', async () => {
    const h = harness({ planner: [planCall(['find a'])], executor: ['a'], replanner: [respondCall('a')] });
    const { result } = await collect(h.runner.run({ userId: 'u', input: 'go', limits: { maxModelCalls: 1, onExhausted: 'answer' } }));
    expect(result.status).toBe('budget_exceeded');
    expect(result.error).toBeInstanceOf(BudgetExceededError);
    expect((result.error as BudgetExceededError).reserve).toBe(1);
  });
});
