import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  InMemorySessionStore,
  ParallelAgent,
  Runner,
  SequentialAgent,
  systemMessage,
  tool,
  type AgentEvent,
  type ModelRequest,
} from '@replan/core';
import { callTools, ScriptedModel } from '@replan/core/testing';
import {
  createExecutor,
  createPlanExecuteAgent,
  createPlanner,
  createReplanner,
  planExecuteEventKind,
  planExecuteKeys,
  planExecuteState,
  SessionKeys,
} from '@replan/planexecute';
import { allText, collect, planCall, respondCall } from './support.js';
import { graphCall, taskOf } from './graph-support.js';

const FINDINGS = 'Lyon has 520k people; Porto has 230k.';

/**
 * A pipeline of two plan–execute agents sharing one session: `research` (linear) stores its answer
 * under `findings`; `report` (graph) plans from it. Built fresh for each "process".
 */
function pipeline(options: { publish: (text: string) => unknown }) {
  const models = {
    researchPlanner: new ScriptedModel({ id: 'research-planner', responses: [planCall(['count Lyon', 'count Porto'])] }),
    researchExecutor: new ScriptedModel({
      id: 'research-executor',
      respond: (r) => (taskOf(r).includes('count Lyon') ? 'Lyon: 520k' : 'Porto: 230k'),
    }),
    researchReplanner: new ScriptedModel({
      id: 'research-replanner',
      respond: (r) => (allText(r).includes('Porto: 230k') ? respondCall(FINDINGS) : planCall(['count Porto'])),
    }),
    reportPlanner: new ScriptedModel({
      id: 'report-planner',
      responses: [graphCall(['a', 'summarize the findings', []], ['b', 'publish $a', ['a']])],
    }),
    reportExecutor: new ScriptedModel({
      id: 'report-executor',
      respond: (r: ModelRequest) => {
        const task = taskOf(r);
        if (task.includes('summarize')) return 'summary: two cities';
        const published = r.messages.some((m) => m.role === 'tool');
        return published ? 'published' : callTools({ name: 'publish', args: { text: 'summary: two cities' } });
      },
    }),
    reportReplanner: new ScriptedModel({ id: 'report-replanner', responses: [respondCall('report done')] }),
  };
  const publish = tool({
    name: 'publish',
    description: 'publishes a text',
    parameters: z.object({ text: z.string() }),
    execute: ({ text }) => options.publish(text),
  });
  const research = createPlanExecuteAgent({
    name: 'research',
    model: models.researchPlanner,
    executorModel: models.researchExecutor,
    replannerModel: models.researchReplanner,
    outputKey: 'findings',
  });
  const report = createPlanExecuteAgent({
    name: 'report',
    mode: 'graph',
    outputKey: 'report',
    planner: createPlanner({
      model: models.reportPlanner,
      // The next agent of the pipeline reads the first one's answer from state.
      buildInput: ({ userInput, state }) => [systemMessage(`Plan a report on: ${String(state?.findings)}`), ...userInput],
    }),
    executor: createExecutor({ model: models.reportExecutor, tools: [publish] }),
    replanner: createReplanner({ model: models.reportReplanner }),
  });
  const root = new SequentialAgent({ name: 'pipeline', subAgents: [research, report] });
  return { models, research, report, root };
}

const sessionOf = async (store: InMemorySessionStore, id: string) => {
  const session = await store.get({ appName: 'pe-test', userId: 'u', id });
  if (!session) throw new Error('no session');
  return session;
};

describe('several plan–execute agents in one tree', () => {
  it('two agents (linear + graph) in one SequentialAgent keep their own plan, steps and answer; the second reads the first’s outputKey', async () => {
    const published: string[] = [];
    const p = pipeline({ publish: (text) => published.push(text) && 'ok' });
    const store = new InMemorySessionStore();
    const runner = new Runner({ agent: p.root, appName: 'pe-test', sessionStore: store });
    const { events, result } = await collect(runner.run({ userId: 'u', input: 'Compare Lyon and Porto.' }));

    expect(result.status).toBe('completed');
    expect(result.output).toBe('report done');
    const { state } = await sessionOf(store, result.sessionId);
    // Each agent's keys, prefixed by its name; no unprefixed keys at all.
    expect(p.research.keys).toEqual(planExecuteKeys('research'));
    expect(p.research.keys.Plan).toBe('research:Plan');
    for (const key of Object.values(SessionKeys)) expect(state[key]).toBeUndefined();

    const research = planExecuteState(state, p.research);
    expect(research.plan).toEqual({ steps: ['count Porto'] });
    expect(research.executedSteps.map((s) => [s.step, s.result])).toEqual([
      ['count Lyon', 'Lyon: 520k'],
      ['count Porto', 'Porto: 230k'],
    ]);
    const report = planExecuteState(state, p.report);
    expect(report.plan?.steps.map((s) => s.id)).toEqual(['a', 'b']);
    expect(report.executedSteps.map((s) => [s.id, s.result])).toEqual([
      ['a', 'summary: two cities'],
      ['b', 'published'],
    ]);
    expect(research.userInput).toEqual(report.userInput);
    // outputKey: each answer stored for the next agent; the second planned from the first's.
    expect(state.findings).toBe(FINDINGS);
    expect(state.report).toBe('report done');
    expect(allText(p.models.reportPlanner.requests[0])).toContain(`Plan a report on: ${FINDINGS}`);
    expect(published).toEqual(['summary: two cities']);

    // Internal names derive from each agent's name; events are classified per agent.
    const authors = new Set(events.map((e) => e.author));
    for (const name of [
      'research_planner',
      'research_executor',
      'research_replanner',
      'report_planner',
      'report_executor',
      'report_replanner',
    ])
      expect(authors).toContain(name);
    expect(events.some((e) => e.path === 'pipeline/research/research_execute_replan/research_executor')).toBe(true);
    const kinds = (classify: (e: AgentEvent) => { readonly kind: string } | undefined) =>
      events.flatMap((e) => {
        const kind = classify(e)?.kind;
        return kind && kind !== 'step-progress' ? [kind] : [];
      });
    expect(kinds((e) => planExecuteEventKind(e, p.research))).toEqual(['plan', 'step-result', 'revised-plan', 'step-result', 'answer']);
    expect(kinds((e) => planExecuteEventKind(e, p.report))).toEqual(['plan', 'step-result', 'step-result', 'answer']);
    const answers = events.flatMap((e) => {
      const k = planExecuteEventKind(e);
      return k?.kind === 'answer' ? [k.answer.text] : [];
    });
    expect(answers).toEqual([FINDINGS, 'report done']);
  });

  it('resume after a kill-like abort in the middle of the second agent keeps both agents correct', async () => {
    const store = new InMemorySessionStore();
    const controller = new AbortController();
    // The first process dies while the report's `publish` call runs.
    const first = pipeline({
      publish: () => {
        controller.abort();
        return new Promise(() => {});
      },
    });
    const runner1 = new Runner({ agent: first.root, appName: 'pe-test', sessionStore: store });
    const stopped = await collect(runner1.run({ userId: 'u', input: 'Compare Lyon and Porto.', signal: controller.signal }));
    expect(stopped.result.status).toBe('aborted');
    const before = (await sessionOf(store, stopped.result.sessionId)).state;
    expect(before.findings).toBe(FINDINGS);
    expect(planExecuteState(before, first.report).executedSteps.map((s) => s.id)).toEqual(['a']);

    // A new process over the same session.
    const published: string[] = [];
    const second = pipeline({ publish: (text) => published.push(text) && 'ok' });
    const runner2 = new Runner({ agent: second.root, appName: 'pe-test', sessionStore: store });
    const { result } = await collect(runner2.resume({ userId: 'u', sessionId: stopped.result.sessionId }));
    expect(result.status).toBe('completed');
    expect(result.output).toBe('report done');
    // Nothing of the first agent runs again, nor the second agent's planner or finished step.
    expect(second.models.researchPlanner.calls + second.models.researchExecutor.calls + second.models.researchReplanner.calls).toBe(0);
    expect(second.models.reportPlanner.calls).toBe(0);
    expect(second.models.reportExecutor.requests.map(taskOf).every((t) => t.includes('publish'))).toBe(true);
    expect(published).toEqual(['summary: two cities']);

    const { state } = await sessionOf(store, result.sessionId);
    for (const key of Object.values(second.research.keys)) expect(state[key]).toEqual(before[key]);
    expect(state.findings).toBe(FINDINGS);
    expect(state.report).toBe('report done');
    expect(planExecuteState(state, second.report).executedSteps.map((s) => [s.id, s.result])).toEqual([
      ['a', 'summary: two cities'],
      ['b', 'published'],
    ]);
  });

  it('the replanner takes its pending step only from its own agent’s events, not another writer of the same key', async () => {
    const store = new InMemorySessionStore();
    const controller = new AbortController();
    const model = () => new ScriptedModel({ responses: [planCall(['s1']), 'r1', respondCall('done')] });
    const first = new Runner({ agent: createPlanExecuteAgent({ model: model() }), appName: 'pe-test', sessionStore: store });
    const run = first.run({ userId: 'u', input: 'go', signal: controller.signal });
    for await (const event of run) if (event.actions?.stateDelta?.[SessionKeys.ExecutedStep]) controller.abort();
    const stopped = await run.result();
    expect(stopped.status).toBe('aborted');
    // Another agent of the tree (outside this plan–execute agent's path) writes the same key afterwards.
    const key = { appName: 'pe-test', userId: 'u', id: stopped.sessionId };
    const session = await sessionOf(store, stopped.sessionId);
    const foreign = {
      id: 'x1',
      invocationId: stopped.invocationId,
      author: 'intruder',
      path: 'intruder',
      timestamp: Date.now(),
      actions: { stateDelta: { [SessionKeys.ExecutedStep]: { step: 'foreign', result: 'nope' } } },
    };
    await store.appendEvents(key, [foreign], { expectedVersion: session.version });

    const replanner = new ScriptedModel({ responses: [respondCall('done')] });
    const agent = createPlanExecuteAgent({
      planner: createPlanner({ model: model() }),
      executor: createExecutor({ model: model() }),
      replanner: createReplanner({ model: replanner }),
    });
    const { result } = await collect(
      new Runner({ agent, appName: 'pe-test', sessionStore: store }).resume({ userId: 'u', sessionId: stopped.sessionId }),
    );
    expect(result.output).toBe('done');
    expect(planExecuteState((await sessionOf(store, result.sessionId)).state).executedSteps).toEqual([{ step: 's1', result: 'r1' }]);
    expect(allText(replanner.requests[0])).not.toContain('foreign');
  });

  it('two plan–execute agents side by side in a ParallelAgent keep their own state', async () => {
    const agentFor = <M extends 'linear' | 'graph'>(name: string, mode: M) => {
      // The graph step's id is the other agent's name: classifying by agent must not be fooled by it.
      const plan = mode === 'graph' ? graphCall(['left', `${name} task`, []]) : planCall([`${name} task`]);
      return createPlanExecuteAgent({
        name,
        mode,
        model: new ScriptedModel({ responses: [plan] }),
        executorModel: new ScriptedModel({ respond: (r) => `${taskOf(r)} done`, latencyMs: 5 }),
        replannerModel: new ScriptedModel({ responses: [respondCall(`${name} answer`)] }),
        outputKey: `${name}_answer`,
      });
    };
    const left = agentFor('left', 'linear');
    const right = agentFor('right', 'graph');
    const store = new InMemorySessionStore();
    const runner = new Runner({
      agent: new ParallelAgent({ name: 'both', subAgents: [left, right] }),
      appName: 'pe-test',
      sessionStore: store,
    });
    const { result, events } = await collect(runner.run({ userId: 'u', input: 'go' }));
    expect(result.status).toBe('completed');
    const { state } = await sessionOf(store, result.sessionId);
    expect(planExecuteState(state, left).executedSteps).toEqual([{ step: 'left task', result: 'left task done' }]);
    expect(planExecuteState(state, right).executedSteps.map((s) => [s.id, s.result])).toEqual([['left', 'right task done']]);
    const results = (
      classify: (e: AgentEvent) => { readonly kind: string; readonly executedStep?: { readonly result?: string } } | undefined,
    ) =>
      events.flatMap((e) => {
        const k = classify(e);
        return k?.kind === 'step-result' ? [k.executedStep?.result] : [];
      });
    expect(results((e) => planExecuteEventKind(e, left))).toEqual(['left task done']);
    expect(results((e) => planExecuteEventKind(e, right))).toEqual(['right task done']);
    expect([state.left_answer, state.right_answer]).toEqual(['left answer', 'right answer']);
  });

  it('the single default-named agent keeps Eino’s key and part names', async () => {
    const model = new ScriptedModel({ responses: [planCall(['s1']), 'r1', respondCall('done')] });
    const agent = createPlanExecuteAgent({ model, outputKey: 'answer' });
    expect(agent.name).toBe('plan_execute');
    expect(agent.keys).toBe(SessionKeys);
    expect(agent.subAgents.map((a) => a.name)).toEqual(['planner', 'execute_replan']);
    const store = new InMemorySessionStore();
    const { result, events } = await collect(
      new Runner({ agent, appName: 'pe-test', sessionStore: store }).run({ userId: 'u', input: 'go' }),
    );
    expect(result.output).toBe('done');
    const { state } = await sessionOf(store, result.sessionId);
    expect(state[SessionKeys.Plan]).toEqual({ steps: ['s1'] });
    expect(planExecuteState(state).executedSteps).toEqual([{ step: 's1', result: 'r1' }]);
    expect(state.answer).toBe('done');
    expect(new Set(events.map((e) => e.path))).toContain('plan_execute/execute_replan/executor');
  });

  it('outputKey stores the structured answer when the replanner has a respond schema of its own', async () => {
    const model = new ScriptedModel({
      responses: [planCall(['s1']), 'r1', callTools({ name: 'respond', args: { city: 'Lyon', population: 520 } })],
    });
    const agent = createPlanExecuteAgent({
      name: 'facts',
      outputKey: 'fact',
      planner: createPlanner({ model }),
      executor: createExecutor({ model }),
      replanner: createReplanner({ model, respondSchema: z.object({ city: z.string(), population: z.number() }) }),
    });
    const store = new InMemorySessionStore();
    const { result } = await collect(new Runner({ agent, appName: 'pe-test', sessionStore: store }).run({ userId: 'u', input: 'go' }));
    expect(result.status).toBe('completed');
    expect((await sessionOf(store, result.sessionId)).state.fact).toEqual({ city: 'Lyon', population: 520 });
  });
});
