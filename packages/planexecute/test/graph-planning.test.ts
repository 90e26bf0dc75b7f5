import { STEP_RESULTS_PREAMBLE } from '../src/base/context-policy.js';
import { INSERTED_RESULTS_PREAMBLE } from '../src/graph/graph-prompts.js';
import { describe, expect, it } from 'vitest';
import { messageText } from '@replan/core';
import { QUOTE_BEGIN, QUOTE_END } from '@replan/core/agent-kit';
import { ScriptedModel } from '@replan/core/testing';
import { createExecutor, createPlanExecuteAgent, createPlanner, createReplanner, PlanningError, SessionKeys } from '@replan/planexecute';
import { graphPlanProblems } from '../src/graph/graph-validation.js';
import { substituteReferences } from '../src/base/step-references.js';
import { collect, respondCall } from './support.js';
import { graphCall, graphHarness, graphPairs, taskOf } from './graph-support.js';

describe('graph plan validation and repair', () => {
  const faults: [string, ReturnType<typeof graphCall>, RegExp][] = [
    ['a cycle', graphCall(['1', 'task 1', ['3']], ['2', 'task 2', ['1']], ['3', 'task 3', ['2']]), /cycle \(\d → \d → \d → \d\)/],
    ['an unknown id', graphCall(['1', 'task 1', []], ['2', 'task 2', ['7']]), /step "2" depends on "7", which is not a step of the plan/],
    ['a duplicate id', graphCall(['1', 'task 1', []], ['1', 'task 2', []]), /step id "1" is used twice/],
    ['a $id not in dependsOn', graphCall(['1', 'task 1', []], ['2', 'use $1', []]), /step "2" uses \$1 but "1" is not in its dependsOn/],
    ['a ${id} naming no step', graphCall(['1', 'use ${x}', []]), /step "1" uses \$\{x\}, but there is no step "x"/],
    ['a bad id', graphCall(['step-1', 'task', []]), /letters, digits and "_"/],
  ];

  for (const [name, faulty, problem] of faults)
    it(`sends ${name} back to the planner for repair, then runs the repaired graph`, async () => {
      const h = graphHarness({
        planner: [faulty, graphCall(['1', 'task 1', []])],
        steps: { 'task 1': ['one'] },
        replanner: [respondCall('ok')],
      });
      const { result } = await collect(h.runner.run({ userId: 'u', input: 'go' }));
      expect(result.status).toBe('completed');
      expect(h.planner.calls).toBe(2);
      expect(messageText(h.planner.requests[1]?.messages.at(-1))).toMatch(problem);
      expect(graphPairs(await h.state(result.sessionId))).toEqual([['1', 'one']]);
    });

  it('fails with PlanningError when every repair is still a cyclic graph', async () => {
    const cyclic = graphCall(['a', 'task a', ['b']], ['b', 'task b', ['a']]);
    const h = graphHarness({ planner: [cyclic, cyclic, cyclic], steps: {} });
    const { result } = await collect(h.runner.run({ userId: 'u', input: 'go' }));
    expect(result.status).toBe('failed');
    expect(result.error).toBeInstanceOf(PlanningError);
    expect(result.error?.message).toMatch(/after 3 attempts: the plan is not a valid graph: the steps form a cycle/);
    expect(h.steps.requests).toHaveLength(0);
    expect((await h.state(result.sessionId))[SessionKeys.Plan]).toBeUndefined();
  });

  it('lists every problem of a plan at once', () => {
    const problems = graphPlanProblems(
      [
        { id: '1', task: 'x', dependsOn: ['1'] },
        { id: '2', task: '$1 and $9', dependsOn: ['done_a', 'failed_b'] },
      ],
      { succeeded: new Set(['done_a']), failed: new Set(['failed_b']) },
    );
    expect(problems).toEqual([
      'step "1" depends on itself',
      'step "2" depends on "failed_b", which failed; depend on the step that replaces it',
      'step "2" uses $1 but "1" is not in its dependsOn; add it to dependsOn or remove the reference',
    ]);
  });
});

describe('$id references', () => {
  it('substitutes exactly: $1 never touches $10, ${1}0 is step 1 then "0", $100 is left as written', () => {
    const results = new Map([
      ['1', 'ONE'],
      ['10', 'TEN'],
    ]);
    const { text, used } = substituteReferences('$1 + $10 = ${1}0, not $100 or $$1 ($&)', results);
    expect(text).toBe('ONE + TEN = ONE0, not $100 or $ONE ($&)');
    expect([...used].sort()).toEqual(['1', '10']);
    expect(substituteReferences('cost $1', new Map([['1', 'costs $& and $1']])).text).toBe('cost costs $& and $1');
  });

  it("writes dependencies' results into the task the step's model reads, and lists only the others", async () => {
    const plan = graphCall(...Array.from({ length: 10 }, (_, i): [string, string, string[]] => [String(i + 1), `task ${i + 1}`, []]), [
      'sum',
      'add $1 and $10 (not ${1}0), using 2',
      ['1', '10', '2'],
    ]);
    const steps: Record<string, string[]> = Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`task ${i + 1}`, [`r${i + 1}`]]));
    steps['add r1 and r10 (not r10), using 2'] = ['r1+r10'];
    const h = graphHarness({ planner: [plan], steps, replanner: [respondCall('ok')], stepConcurrency: 10 });
    const { result } = await collect(h.runner.run({ userId: 'u', input: 'go' }));
    expect(result.status).toBe('completed');
    const request = h.steps.requests.find((r) => taskOf(r).startsWith('add '));
    const text = messageText(request?.messages.at(-1));
    // Issue 10: listed results and results written into the task are quoted as data.
    const q = (v: string) => `${QUOTE_BEGIN}${v}${QUOTE_END}`;
    expect(text).toBe(
      `## RESULTS OF EARLIER STEPS\n${STEP_RESULTS_PREAMBLE}\n${QUOTE_BEGIN}\n[2] Step: task 2\n   Result: r2\n${QUOTE_END}\n\n` +
        `${INSERTED_RESULTS_PREAMBLE}\n## YOUR TASK\nadd ${q('r1')} and ${q('r10')} (not ${q('r1')}0), using 2`,
    );
    expect(graphPairs(await h.state(result.sessionId)).at(-1)).toEqual(['sum', 'r1+r10']);
  });
});

describe('a graph plan not written by a graph planner', () => {
  it('fails with InvalidPlanGraphError instead of waiting forever on a cycle', async () => {
    const { Runner, SequentialAgent } = await import('@replan/core');
    const { graphMode, InvalidPlanGraphError } = await import('@replan/planexecute');
    const writer = {
      name: 'writer',
      description: 'stores a plan without validating it',
      async *run(ctx: import('@replan/core').InvocationContext) {
        yield ctx.event({
          actions: {
            stateDelta: {
              [SessionKeys.Plan]: {
                steps: [
                  { id: 'a', task: 't', dependsOn: ['b'] },
                  { id: 'b', task: 't', dependsOn: ['a'] },
                ],
              },
            },
          },
        });
      },
    };
    const model = new ScriptedModel();
    const agent = new SequentialAgent({ name: 'root', subAgents: [writer, graphMode.executor({ model }, SessionKeys)] });
    const { result } = await collect(new Runner({ agent, appName: 'a' }).run({ userId: 'u', input: 'go' }));
    expect(result.status).toBe('failed');
    expect(result.error).toBeInstanceOf(InvalidPlanGraphError);
    expect(result.error?.message).toMatch(/cannot run the stored plan: the steps form a cycle/);
    expect(model.calls).toBe(0);
  });
});

describe('graph mode construction', () => {
  const model = new ScriptedModel();
  it('sets mode and stepConcurrency on the agent only, and says what does not fit the mode', () => {
    const parts = { planner: createPlanner({ model }), executor: createExecutor({ model }), replanner: createReplanner({ model }) };
    expect(() => createPlanExecuteAgent({ ...parts, stepConcurrency: 2 })).toThrow(/only applies with mode: 'graph'/);
    expect(() => createPlanExecuteAgent({ ...parts, mode: 'graph', stepConcurrency: 0 })).toThrow(
      /stepConcurrency must be a positive integer/,
    );
    expect(() => createPlanExecuteAgent({ ...parts, executor: createExecutor({ model, buildInput: () => [] }), mode: 'graph' })).toThrow(
      /buildGraphInput/,
    );
    expect(() => createPlanExecuteAgent({ ...parts, mode: 'tree' as 'graph' })).toThrow(/mode must be 'linear', 'graph' or a PlanMode/);
    expect(() => createPlanExecuteAgent({ ...parts, streamingPlan: true })).toThrow(/mode 'linear' cannot/);
    expect(() => createExecutor({ model, contextPolicy: { kind: 'summarized', maxTokens: -1 } })).toThrow(/contextPolicy must be/);
    expect(() => createPlanExecuteAgent({ ...parts, mode: 'graph' })).not.toThrow();
  });

  it('builds a graph agent in the one-call form', async () => {
    const shared = new ScriptedModel({
      responses: [graphCall(['1', 'task 1', []]), 'one', respondCall('fine')],
    });
    const agent = createPlanExecuteAgent({ model: shared, mode: 'graph' });
    const { Runner } = await import('@replan/core');
    const { result } = await collect(new Runner({ agent, appName: 'a' }).run({ userId: 'u', input: 'go' }));
    expect(result.status).toBe('completed');
    expect(JSON.stringify(shared.requests[0]?.tools?.[0]?.parameters)).toContain('dependsOn');
    expect(messageText(shared.requests[0]?.messages[0])).toContain('dependency graph');
  });
});
