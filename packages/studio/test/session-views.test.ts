import { InMemorySessionStore, Runner, type AgentEvent, type ModelRequest } from '@replan/core';
import { AGENT_TOOL_INPUT_KIND } from '@replan/core/agent-kit';
import { callTools, ScriptedModel } from '@replan/core/testing';
import { createPlanExecuteAgent, planExecuteEventKind } from '@replan/planexecute';
import { describe, expect, it } from 'vitest';
import { planRevisions, stepEvents } from '../src/view/plan-revisions.js';
import { sessionDigest } from '../src/view/session-digest.js';
import { statusOf } from '../src/view/session-status.js';
import { stateAt } from '../src/view/state-at.js';
import { runHolderOf } from '../src/view/run-holder.js';
import { approvalScenario, graphScenario, revisingScenario } from './support/scenarios.js';

const isPlanner = (r: ModelRequest) => typeof r.toolChoice === 'object' && r.toolChoice.name === 'plan';
const isReplanner = (r: ModelRequest) => r.tools?.some((t) => t.name === 'respond') === true;

/** Linear: plan [A, B]; after A the replanner drops B for C; after C it answers. */
function revisingRunner(store: InMemorySessionStore, fail?: Error) {
  let replans = 0;
  const model = new ScriptedModel({
    respond: (request) => {
      if (isPlanner(request)) return callTools({ name: 'plan', args: { steps: ['A', 'B'] } });
      if (isReplanner(request))
        return replans++ === 0
          ? callTools({ name: 'plan', args: { steps: ['C'] } })
          : callTools({ name: 'respond', args: { response: 'done' } });
      if (fail) return fail;
      return 'step result';
    },
  });
  return new Runner({ agent: createPlanExecuteAgent({ model }), appName: 'views', sessionStore: store });
}

const eventsOf = async (store: InMemorySessionStore, id: string): Promise<readonly AgentEvent[]> =>
  (await store.get({ appName: 'views', userId: 'u', id }))?.events ?? [];

describe('plan revisions', () => {
  it('linear: each version with its steps’ status until the next, and what it changed', async () => {
    const store = new InMemorySessionStore();
    await revisingRunner(store).run({ userId: 'u', sessionId: 's', input: 'go' }).result();
    const revisions = planRevisions(await eventsOf(store, 's'));
    expect(revisions.map((r) => r.mode)).toEqual(['linear', 'linear']);
    expect(revisions[0]!.steps.map((s) => [s.key, s.label, s.status])).toEqual([
      ['n1', 'A', 'done'],
      // B never ran (the revision dropped it): the key of where it first appeared, version 1, step 2
      ['v1.2', 'B', 'pending'],
    ]);
    expect(revisions[1]!.steps.map((s) => [s.key, s.label, s.status])).toEqual([
      ['n1', 'A', 'done'],
      ['n2', 'C', 'done'],
    ]);
    // A was done, not dropped: the revision replaced B (still to run) with C
    expect(revisions[1]).toMatchObject({ added: ['C'], removed: ['B'], author: 'replanner' });
  });

  it('linear: a step keeps its key in every version, before and after it runs', async () => {
    const store = new InMemorySessionStore();
    await revisingScenario(store, 'views').run({ userId: 'u', sessionId: 'k', input: 'go' }).result();
    const events = await eventsOf(store, 'k');
    const keys = (revisions: ReturnType<typeof planRevisions>) =>
      revisions.map((r) => r.steps.map((s) => `${s.key} ${s.label.replace('Step ', '')}`));
    expect(keys(planRevisions(events))).toEqual([
      ['n1 A', 'n2 B', 'v1.3 C'],
      ['n1 A', 'n2 B', 'v1.3 C'],
      ['n1 A', 'n2 B', 'n3 D', 'n4 E'],
      ['n1 A', 'n2 B', 'n3 D', 'n4 E'],
    ]);
    // While the log grows, a waiting step already has the key it keeps once it runs.
    const revised = events.flatMap((e, i) => (planExecuteEventKind(e)?.kind === 'revised-plan' ? [i] : []));
    const early = planRevisions(events.slice(0, revised[2]! + 1));
    expect(keys(early).at(-1)).toEqual(['n1 A', 'n2 B', 'n3 D', 'n4 E']);
    expect(early.at(-1)!.steps.map((s) => s.status)).toEqual(['done', 'done', 'done', 'pending']);
    // The step's detail finds its events by that key
    expect(stepEvents(events, 'n4').length).toBeGreaterThan(0);
    expect(stepEvents(events, 'v1.3')).toEqual([]);
  });

  it('graph: nodes with dependencies; statuses follow the run; step events by id', async () => {
    const store = new InMemorySessionStore();
    const scenario = graphScenario(store, 'views', 0);
    const run = scenario.runner.run({ userId: 'u', sessionId: 'g', input: 'go' });
    const seen: string[] = [];
    const watch = (async () => {
      for await (const event of run) {
        if (event.partial) continue;
        const steps = planRevisions([...(await eventsOf(store, 'g'))]).at(-1)?.steps ?? [];
        const line = steps.map((s) => `${s.key}:${s.status}`).join(' ');
        if (line && seen.at(-1) !== line) seen.push(line);
        if (steps.find((s) => s.key === 'a')?.status === 'done' && steps.find((s) => s.key === 'b')?.status === 'done') scenario.release();
      }
    })();
    await run.result();
    await watch;
    expect(seen[0]).toBe('a:pending b:pending c:pending');
    expect(seen).toContain('a:done b:done c:pending');
    expect(seen.at(-1)).toBe('a:done b:done c:done');
    const events = await eventsOf(store, 'g');
    const graph = planRevisions(events).at(-1)!;
    expect(graph.mode).toBe('graph');
    expect(graph.steps.find((s) => s.key === 'c')?.dependsOn).toEqual(['a', 'b']);
    // each step's model calls and tokens, from the usage stored on its events (the scripted model reports 10 in / 5 out)
    const digest = sessionDigest((await store.get({ appName: 'views', userId: 'u', id: 'g' }))!);
    const stepB = digest.revisions.at(-1)!.steps.find((s) => s.key === 'b');
    expect(stepB).toMatchObject({ modelCalls: 2, tokens: { input: 20, output: 10 } });
    const bEvents = stepEvents(events, 'b');
    expect(bEvents.length).toBeGreaterThan(0);
    expect(bEvents.every(({ event }) => event.path.endsWith('/executor/b'))).toBe(true);
  });
});

describe('session status from the stored events', () => {
  it('interrupted, then completed after the answer', async () => {
    const store = new InMemorySessionStore();
    const runner = approvalScenario(store, 'views');
    const result = await runner.run({ userId: 'u', sessionId: 'i', input: 'send' }).result();
    const digest = sessionDigest((await store.get({ appName: 'views', userId: 'u', id: 'i' }))!);
    expect(digest.status).toBe('interrupted');
    expect(digest.interrupts.map((i) => i.id)).toEqual(result.interrupts.map((i) => i.id));
    expect(digest.interrupts[0]!.payload).toContain('team@example.com');
    await runner.resume({ userId: 'u', sessionId: 'i', values: { [result.interrupts[0]!.id]: true } }).result();
    const done = sessionDigest((await store.get({ appName: 'views', userId: 'u', id: 'i' }))!);
    expect(done).toMatchObject({ status: 'completed', output: 'The report was sent.', interrupts: [] });
    expect(done.tokens.input).toBeGreaterThan(0);
  });

  it('failed with the error; budget_exceeded; running while unfinished; empty', async () => {
    const store = new InMemorySessionStore();
    await revisingRunner(store, new Error('model down')).run({ userId: 'u', sessionId: 'f', input: 'go' }).result();
    const failed = statusOf(await eventsOf(store, 'f'));
    expect(failed.status).toBe('failed');
    expect(failed.error?.message).toContain('model down');
    await revisingRunner(store)
      .run({ userId: 'u', sessionId: 'b', input: 'go', limits: { maxModelCalls: 2 } })
      .result();
    expect(statusOf(await eventsOf(store, 'b')).status).toBe('budget_exceeded');
    const events = await eventsOf(store, 'b');
    expect(statusOf(events.slice(0, 3)).status).toBe('running');
    expect(statusOf([]).status).toBe('empty');
  });

  it('blocked when a guardrail tripped (not completed)', async () => {
    const store = new InMemorySessionStore();
    const agent = createPlanExecuteAgent({
      model: new ScriptedModel(),
      guardrails: { input: [{ name: 'topic', check: () => ({ tripwire: true, reason: 'off-topic' }) }] },
    });
    const runner = new Runner({ agent, appName: 'views', sessionStore: store });
    await runner.run({ userId: 'u', sessionId: 'g', input: 'go' }).result();
    expect(statusOf(await eventsOf(store, 'g')).status).toBe('blocked');
  });

  it("who runs an unfinished session: the lease holder, the root parent's for a child session, or nobody", async () => {
    const store = new InMemorySessionStore();
    const key = { appName: 'views', userId: 'u', id: 'r' };
    const input = (id: string, meta?: AgentEvent['meta']): AgentEvent => ({
      id,
      invocationId: 'inv',
      author: 'user',
      path: 'user',
      timestamp: 1,
      message: { role: 'user', content: [{ type: 'text', text: 'go' }] },
      ...(meta ? { meta } : {}),
    });
    const root = await store.create(key, [input('e1')]);
    expect(statusOf(root.events).status).toBe('running'); // the log alone cannot tell
    expect(await runHolderOf(store, root)).toBeNull(); // nobody holds it: queued, or crashed
    const lease = await store.acquireLease(key, { owner: 'worker-7', ttlMs: 60_000 });
    expect(await runHolderOf(store, root)).toEqual({ owner: 'worker-7', expiresAt: lease.expiresAt });
    // A child session (agentTool) is run by the run that holds its root session: that holder is named.
    const link = {
      schemaVersion: 1,
      parentSessionId: 'r',
      parentInvocationId: 'inv',
      toolCallId: 't1',
      toolName: 'research',
      path: 'root',
    };
    const child = await store.create({ ...key, id: 'r-child' }, [input('c1', { kind: AGENT_TOOL_INPUT_KIND, parent: link })]);
    expect(await runHolderOf(store, child)).toEqual({ owner: 'worker-7', expiresAt: lease.expiresAt });
    await store.releaseLease(key, lease);
    expect(await runHolderOf(store, child)).toBeNull();
    // A store that cannot tell: no answer rather than a wrong one.
    const plain = Object.assign(Object.create(store), { leaseHolder: undefined });
    expect(await runHolderOf(plain, root)).toBeUndefined();
  });

  it('state at an event replays the events (later writes not applied)', async () => {
    const store = new InMemorySessionStore();
    await revisingRunner(store)
      .run({ userId: 'u', sessionId: 't', input: 'go', state: { 'user:lang': 'fr' } })
      .result();
    const events = await eventsOf(store, 't');
    const planAt = events.findIndex((e) => e.meta?.planExecute === 'plan');
    const early = stateAt(events, planAt, { 'user:lang': 'fr' });
    expect(early.session.Plan).toEqual({ steps: ['A', 'B'] });
    expect(early.user).toEqual({ 'user:lang': 'fr' });
    expect(stateAt(events, events.length - 1).session.Plan).toEqual({ steps: ['C'] });
  });
});
