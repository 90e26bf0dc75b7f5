import { describe, expect, it } from 'vitest';
import { type BudgetExceededError, ConfigurationError, InMemorySessionStore, type AgentEvent } from '@replan/core';
import { callTools, ScriptedModel } from '@replan/core/testing';
import {
  createExecutor,
  createPlanExecuteAgent,
  createPlanner,
  createReplanner,
  planExecuteEventKind,
  SessionKeys,
  type ExecutedGraphStep,
} from '@replan/planexecute';
import { graphStepsOf } from '../src/graph/graph-plan.js';
import { collect, respondCall } from './support.js';
import { graphCall, graphPairs } from './graph-support.js';
import { streamingHarness } from './streaming-plan-support.js';

const withTool = (id: string) => [callTools({ name: 'work', args: { q: id } }), `${id} done`];
const diamond = graphCall(['a', 'task a', []], ['b', 'task b', []], ['c', 'task c from $a and $b', ['a', 'b']], ['d', 'task d', ['c']]);
const diamondSteps = {
  'task a': withTool('a'),
  'task b': withTool('b'),
  'task c from a done and b done': ['c done'],
  'task d': ['d done'],
};

const kindOf = (e: AgentEvent) => planExecuteEventKind(e)?.kind;
const resultId = (e: AgentEvent) => (e.actions?.stateDelta?.[SessionKeys.ExecutedStep] as ExecutedGraphStep | undefined)?.id;
const planStepIds = (events: readonly AgentEvent[]) => events.filter((e) => kindOf(e) === 'plan-step').map((e) => e.meta?.stepId);

/** A promise and its resolver. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((r) => (open = r));
  return { opened, open };
}

describe('streaming planner (graph mode, streamingPlan: true)', () => {
  it('starts steps while the plan is still streaming, once their objects are complete and their dependencies done', async () => {
    const worked = new Set<string>();
    const bothWorked = gate();
    const h = streamingHarness({
      planner: [diamond],
      steps: diamondSteps,
      replanner: [respondCall('all done')],
      // the plan's finish part waits until a's and b's tools ran: deadlock-free only if they started mid-stream
      holdFinish: () => bothWorked.opened,
      onTool: (q) => {
        worked.add(q);
        if (worked.has('a') && worked.has('b')) bothWorked.open();
      },
    });
    const { events, result } = await collect(h.runner.run({ userId: 'u', input: 'go' }));
    expect(result.status).toBe('completed');
    expect(result.output).toBe('all done');
    // counted, not timed: both tools were called before the planner's stream finished
    expect(h.log.indexOf('tool:a')).toBeLessThan(h.log.indexOf('plan:end'));
    expect(h.log.indexOf('tool:b')).toBeLessThan(h.log.indexOf('plan:end'));
    // each step was accepted (stored) before it started, and a's result was stored before the plan
    expect(planStepIds(events)).toEqual(['a', 'b', 'c', 'd']);
    const at = (p: (e: AgentEvent) => boolean) => events.findIndex(p);
    expect(at((e) => e.meta?.stepId === 'a' && kindOf(e) === 'plan-step')).toBeLessThan(at((e) => e.path.endsWith('/a')));
    expect(at((e) => resultId(e) === 'a')).toBeLessThan(at((e) => kindOf(e) === 'plan'));
    expect(events.find((e) => kindOf(e) === 'plan-step')?.actions?.stateDelta?.[SessionKeys.UserInput]).toBeDefined();
    // steps run on the planner's path; the loop's executor found nothing left; one planner and one replanner call
    expect(events.find((e) => resultId(e) === 'a')?.path).toBe('plan_execute/planner/executor/a');
    expect(h.planner.calls).toBe(1);
    expect(h.replanner.calls).toBe(1);
    expect(['task a', 'task b'].map((t) => h.steps.callsFor(t))).toEqual([2, 2]);
    const state = await h.state(result.sessionId);
    expect(graphPairs(state).map(([id]) => id)).toEqual(['a', 'b', 'c', 'd']);
    expect(graphStepsOf(state[SessionKeys.Plan]).map((s) => s.id)).toEqual(['a', 'b', 'c', 'd']);
  });

  it('a complete plan that is invalid after steps started: started steps are kept, the replanner handles the rest', async () => {
    const faulty = graphCall(['a', 'task a', []], ['b', 'task b', ['a']], ['c', 'task c', ['zzz']]);
    const h = streamingHarness({
      planner: [faulty],
      steps: { 'task a': withTool('a'), 'task b': ['b done'] },
      replanner: [respondCall('answered')],
    });
    const { events, result } = await collect(h.runner.run({ userId: 'u', input: 'go' }));
    expect(result.status).toBe('completed');
    expect(h.planner.calls).toBe(1); // no repair: steps had started
    expect(planStepIds(events)).toEqual(['a', 'b']); // c depends on an unknown step: never accepted
    const plan = events.map((e) => planExecuteEventKind(e)).find((k) => k?.kind === 'plan');
    expect(plan).toMatchObject({ kind: 'plan', problem: expect.stringContaining('"zzz"') });
    const state = await h.state(result.sessionId);
    expect(graphStepsOf(state[SessionKeys.Plan]).map((s) => s.id)).toEqual(['a', 'b']);
    expect(graphPairs(state)).toEqual([
      ['a', 'a done'],
      ['b', 'b done'],
    ]);
    expect(h.replanner.calls).toBe(1);
    expect(h.steps.callsFor('task c')).toBe(0);
  });

  it('a step failing mid-stream stops new starts; the plan is still stored and the replanner runs once', async () => {
    const aFailed = gate();
    const plan = graphCall(['a', 'task a', []], ['b', 'task b', []]);
    const h = streamingHarness({
      planner: [plan],
      steps: { 'task a': [new Error('no data')], 'task b': ['b done'] },
      replanner: [respondCall('gave up')],
      holdFinish: () => aFailed.opened, // the plan ends only after a failed: b's object arrives (a chunk later) after that
    });
    const run = h.runner.run({ userId: 'u', input: 'go' });
    const events: AgentEvent[] = [];
    for await (const event of run) {
      events.push(event);
      if (resultId(event) === 'a') aFailed.open();
    }
    const result = await run.result();
    expect(result.status).toBe('completed');
    expect(result.output).toBe('gave up');
    const state = await h.state(result.sessionId);
    expect(graphStepsOf(state[SessionKeys.Plan]).map((s) => s.id)).toEqual(['a', 'b']);
    expect(graphPairs(state).map(([id]) => id)).toEqual(['a']); // b never started after a failed
    expect(h.steps.callsFor('task b')).toBe(0);
    expect(h.replanner.calls).toBe(1);
  });

  it('an invalid plan before any step started is repaired like any plan', async () => {
    const held = graphCall(['b', 'task b', ['a']], ['c', 'task c', ['b']]); // a never comes: nothing starts
    const good = graphCall(['a', 'task a', []]);
    const h = streamingHarness({ planner: [held, good], steps: { 'task a': ['a done'] }, replanner: [respondCall('ok')] });
    const { events, result } = await collect(h.runner.run({ userId: 'u', input: 'go' }));
    expect(result.status).toBe('completed');
    expect(h.planner.calls).toBe(2);
    expect(events.filter((e) => kindOf(e) === 'repair').length).toBeGreaterThan(0);
    expect(planStepIds(events)).toEqual(['a']);
    expect(graphPairs(await h.state(result.sessionId))).toEqual([['a', 'a done']]);
  });

  it('resumes after an abort mid-stream: finished steps are not re-run, the planner is called again', async () => {
    const store = new InMemorySessionStore();
    const controller = new AbortController();
    const plan = graphCall(['a', 'task a', []], ['b', 'task b', ['a']], ['c', 'task c', []]);
    const first = streamingHarness({
      planner: [plan],
      steps: { 'task a': withTool('a'), 'task b': withTool('b'), 'task c': ['c done'] },
      store,
      hang: new Set(['b']),
      holdFinish: () => new Promise(() => {}), // the plan never ends in this process
      onTool: (q) => {
        if (q === 'b') setTimeout(() => controller.abort(), 5); // b's tool call is stored, its result never comes
      },
    });
    const run = first.runner.run({ userId: 'u', input: 'go', signal: controller.signal });
    for await (const _event of run);
    const stopped = await run.result();
    expect(stopped.status).toBe('aborted');
    expect(first.work.calls).toEqual(['a', 'b']); // b started once a was done, and hangs
    const before = await first.state(stopped.sessionId);
    expect(before[SessionKeys.Plan]).toBeUndefined(); // the plan was never stored
    expect(graphPairs(before)).toEqual([['a', 'a done']]);

    const second = streamingHarness({
      planner: [plan],
      steps: { 'task b': ['b done'], 'task c': ['c done'] }, // b's tool call is stored: only its answer is asked
      store,
      replanner: [respondCall('all done')],
    });
    const { result } = await collect(second.runner.resume({ userId: 'u', sessionId: stopped.sessionId }));
    expect(result.status).toBe('completed');
    expect(second.planner.calls).toBe(1); // the plan was not stored: the planner streams it again
    expect(second.steps.callsFor('task a')).toBe(0); // a is not re-run
    expect(second.work.calls).toEqual(['b']); // its result was never stored: the tool runs again, nothing else does
    expect(second.steps.callsFor('task b')).toBe(1);
    // every step accepted exactly once over both processes (a and b before the abort, re-streamed unchanged)
    expect(planStepIds(await second.events(result.sessionId)).sort()).toEqual(['a', 'b', 'c']);
    const pairs = graphPairs(await second.state(result.sessionId));
    expect(pairs.map(([id]) => id).sort()).toEqual(['a', 'b', 'c']);
    expect(pairs[0]).toEqual(['a', 'a done']);
  });

  it('resumes after an abort once the plan was stored: the planner is not called again, only unfinished steps run', async () => {
    const store = new InMemorySessionStore();
    const controller = new AbortController();
    const plan = graphCall(['a', 'task a', []], ['b', 'task b', []], ['c', 'task c', ['a', 'b']]);
    const first = streamingHarness({
      planner: [plan],
      steps: { 'task a': withTool('a'), 'task b': withTool('b') },
      store,
      hang: new Set(['b']),
    });
    const run = first.runner.run({ userId: 'u', input: 'go', signal: controller.signal });
    let aDone = false;
    let planned = false;
    for await (const event of run) {
      aDone ||= resultId(event) === 'a';
      planned ||= kindOf(event) === 'plan';
      if (aDone && planned && !controller.signal.aborted) controller.abort();
    }
    expect((await run.result()).status).toBe('aborted');
    const sessionId = (await run.result()).sessionId;

    const second = streamingHarness({
      planner: [],
      steps: { 'task b': ['b done'], 'task c': ['c done'] },
      store,
      replanner: [respondCall('done')],
    });
    const { result } = await collect(second.runner.resume({ userId: 'u', sessionId }));
    expect(result.status).toBe('completed');
    expect(second.planner.calls).toBe(0);
    expect(second.steps.callsFor('task a')).toBe(0);
    expect(second.work.calls).toEqual(['b']);
    expect(graphPairs(await second.state(result.sessionId)).map(([id]) => id)).toEqual(['a', 'b', 'c']);
  });

  it('maxModelCalls hit while the plan streams: budget_exceeded, the plan still stored, resumable without re-running', async () => {
    const store = new InMemorySessionStore();
    const plan = graphCall(['a', 'task a', []], ['b', 'task b', []], ['c', 'task c', []]);
    const steps = { 'task a': withTool('a'), 'task b': withTool('b'), 'task c': withTool('c') };
    const first = streamingHarness({ planner: [plan], steps, store });
    // the planner's call plus the first call of a, b and c: each step's second call is over the budget
    const stopped = await collect(first.runner.run({ userId: 'u', input: 'go', limits: { maxModelCalls: 4 } }));
    expect(stopped.result.status).toBe('budget_exceeded');
    expect((stopped.result.error as BudgetExceededError).budget).toBe('maxModelCalls');
    expect(graphStepsOf((await first.state(stopped.result.sessionId))[SessionKeys.Plan])).toHaveLength(3);

    const rest = { 'task a': ['a done'], 'task b': ['b done'], 'task c': withTool('c') };
    const second = streamingHarness({ planner: [], steps: rest, store, replanner: [respondCall('done')] });
    const { result } = await collect(second.runner.resume({ userId: 'u', sessionId: stopped.result.sessionId }));
    expect(result.status).toBe('completed');
    expect(second.planner.calls).toBe(0);
    expect([...first.work.calls, ...second.work.calls].sort()).toEqual(['a', 'b', 'c']); // each tool once overall
    expect(
      graphPairs(await second.state(result.sessionId))
        .map(([id]) => id)
        .sort(),
    ).toEqual(['a', 'b', 'c']);
  });

  it('rejects streamingPlan outside graph mode and with a planner that cannot stream its plan', () => {
    const model = new ScriptedModel();
    expect(() => createPlanExecuteAgent({ model, streamingPlan: true })).toThrow(ConfigurationError);
    expect(() => createPlanExecuteAgent({ model, mode: 'graph', streamingPlan: true, structuredOutput: 'response-format' })).toThrow(
      /response-format/,
    );
    const parts = { executor: createExecutor({ model }), replanner: createReplanner({ model }) };
    expect(() =>
      createPlanExecuteAgent({
        mode: 'graph',
        streamingPlan: true,
        planner: { ...createPlanner({ model }) } as never,
        ...parts,
      }),
    ).toThrow(/custom agent/);
    expect(createPlanExecuteAgent({ model, mode: 'graph', streamingPlan: true }).name).toBe('plan_execute');
  });
});
