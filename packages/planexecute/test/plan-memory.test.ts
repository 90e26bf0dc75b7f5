import { describe, expect, it } from 'vitest';
import { ConfigurationError, InMemorySessionStore, ReActAgent, Runner, tool } from '@replan/core';
import { z } from 'zod';
import { createPlanExecuteAgent } from '@replan/planexecute';
import { scriptPlanExecute } from '@replan/planexecute/testing';
import { InMemoryMemoryStore } from '@replan/memory';
import { ScriptedMemoryStore } from '../../memory/test/support/scripted-store.js';
import { PLAN, plannerText, reusedOf, run, script } from './support/plan-memory-run.js';

describe('plan–execute memory', () => {
  it('a finished run is kept as a plan memory: objective, plan, outcome, source', async () => {
    const store = new ScriptedMemoryStore();
    const first = await run(store, 'Book the cheapest flight from Lisbon to Porto');
    expect(first.result.status).toBe('completed');
    expect(first.result.output).toBe('TP123');
    expect(store.items).toHaveLength(1);
    const [item] = store.items;
    const kept = first.events.find((e) => e.meta?.kind === 'plan-memory');
    expect(item).toMatchObject({
      scope: { appName: 'travel', userId: 'alice' },
      kind: 'plan',
      text: 'Book the cheapest flight from Lisbon to Porto',
      source: { sessionId: first.result.sessionId, eventId: kept?.id },
      metadata: { plan: PLAN, revisions: [], outcome: { status: 'completed', steps: 2, failedSteps: [] } },
    });
    expect((item?.metadata?.outcome as { inputTokens: number } | undefined)?.inputTokens).toBeGreaterThan(0);
  });

  it('revisions are kept (a carried-on linear plan is not one); a run out of iterations is kept as max_iterations', async () => {
    const store = new ScriptedMemoryStore();
    const revised = { steps: ['ask the airline'] };
    const models = scriptPlanExecute({
      plan: PLAN,
      steps: { [PLAN.steps[0] as string]: 'no flights', 'ask the airline': 'TP5 by phone' },
      replans: [revised],
      answer: 'TP5',
    });
    const out = await run(store, 'Book a flight to Porto', { models });
    expect(out.result.status).toBe('completed');
    expect(store.items[0]?.metadata).toMatchObject({ plan: PLAN, revisions: [revised], outcome: { status: 'completed', steps: 2 } });

    const short = await run(store, 'Book a flight to Faro', { extra: { maxIterations: 1 } });
    expect(short.result.status).toBe('max_iterations');
    expect(store.items[1]?.metadata).toMatchObject({ plan: PLAN, outcome: { status: 'max_iterations', steps: 1 } });
  });

  it('a failed step is in the outcome, and the next planner reads it', async () => {
    const store = new ScriptedMemoryStore();
    const lookup = tool({ name: 'lookup', description: 'looks up', parameters: z.object({}), execute: () => 'none' });
    const models = scriptPlanExecute({
      plan: PLAN,
      steps: { [PLAN.steps[0] as string]: { toolCalls: [{ name: 'lookup' }], text: 'never' }, [PLAN.steps[1] as string]: 'TP1' },
      answer: 'TP1',
    });
    const out = await run(store, 'Book the cheapest flight from Lisbon to Porto', {
      models,
      extra: { tools: [lookup], stepMaxIterations: 1 },
    });
    expect(out.result.status).toBe('completed');
    expect(store.items[0]?.metadata).toMatchObject({ outcome: { status: 'completed', steps: 1, failedSteps: [PLAN.steps[0]] } });
    const next = await run(store, 'Book the cheapest flight from Lisbon to Faro');
    expect(plannerText(next.models.plannerModel.requests[0])).toContain(`outcome: completed, 1 step(s) run, failed: ${PLAN.steps[0]}`);
  });

  it('the planner sees the closest past plans and how they went, quoted as data', async () => {
    const store = new ScriptedMemoryStore();
    await run(store, 'Book the cheapest flight from Lisbon to Porto');
    const second = await run(store, 'Book the cheapest flight from Lisbon to Faro');
    expect(second.models.plannerModel.calls).toBe(1);
    const prompt = plannerText(second.models.plannerModel.requests.at(-1));
    expect(prompt).toContain('Plans made before for similar objectives, and how they went');
    expect(prompt).toContain('objective: Book the cheapest flight from Lisbon to Porto');
    expect(prompt).toContain('plan: 1. find flights Lisbon to Porto 2. pick the cheapest');
    expect(prompt).toContain('outcome: completed, 2 step(s) run, no step failed');
    const recall = second.events.find((e) => (e.meta?.memory as { kind?: string })?.kind === 'plan-recall');
    expect(recall?.meta?.memory).toMatchObject({
      query: 'Book the cheapest flight from Lisbon to Faro',
      recalled: [{ id: store.items[0]?.id }],
    });
    expect(reusedOf(second.events)).toBeUndefined();
  });

  it("hostile ids: another user's plans are never shown or reused", async () => {
    const store = new ScriptedMemoryStore();
    await run(store, 'Book the cheapest flight from Lisbon to Porto');
    for (const userId of ['bob', 'alice ', 'ALICE', 'alice/..', '*']) {
      const out = await run(store, 'Book the cheapest flight from Lisbon to Porto', { userId, memory: { reusePlans: { minScore: 0 } } });
      expect(out.models.plannerModel.calls).toBe(1);
      expect(plannerText(out.models.plannerModel.requests[0])).not.toContain('Plans made before');
    }
    expect(store.items.filter((i) => i.scope.userId === 'alice')).toHaveLength(1);
  });

  it('a store that is down: the run plans and answers without memory, and the events say so', async () => {
    const store = new ScriptedMemoryStore();
    store.down = 'memory database unreachable';
    const out = await run(store, 'Book the cheapest flight from Lisbon to Porto', { memory: { reusePlans: { minScore: 0.5 } } });
    expect(out.result.status).toBe('completed');
    expect(out.result.output).toBe('TP123');
    expect(plannerText(out.models.plannerModel.requests[0])).toContain('Memory of past plans is unavailable for this run');
    const metas = out.events
      .map((e) => e.meta?.memory as { kind?: string; unavailable?: string; failed?: string } | undefined)
      .filter(Boolean);
    expect(metas).toEqual([
      expect.objectContaining({ kind: 'plan-recall', unavailable: 'memory database unreachable' }),
      expect.objectContaining({ kind: 'plan-kept' }),
      expect.objectContaining({ kind: 'plan-not-kept', failed: 'memory database unreachable' }),
    ]);
  });

  it('kept once across a crash: the store write fails with the process, the resumed run writes it once', async () => {
    for (const crashAfterWrite of [false, true]) {
      const store = new ScriptedMemoryStore();
      const controller = new AbortController();
      const put = store.put.bind(store);
      store.put = async (memory) => {
        const stored = crashAfterWrite ? await put(memory) : undefined;
        if (!controller.signal.aborted) {
          controller.abort(new Error('process killed'));
          throw controller.signal.reason;
        }
        return stored ?? put(memory);
      };
      const models = script();
      const agent = createPlanExecuteAgent({ ...models, memory: { store } });
      const sessions = new InMemorySessionStore();
      const first = await new Runner({ agent, appName: 'travel', sessionStore: sessions })
        .run({ userId: 'alice', input: 'Book a flight', signal: controller.signal })
        .result();
      expect(first.status).toBe('aborted');
      const resumed = await new Runner({ agent, appName: 'travel', sessionStore: sessions })
        .resume({ userId: 'alice', sessionId: first.sessionId })
        .result();
      expect(resumed.status).toBe('completed');
      expect(resumed.output).toBe('TP123');
      expect(store.items).toHaveLength(1);
      expect(models.plannerModel.calls).toBe(1);
      const events = (await sessions.get({ appName: 'travel', userId: 'alice', id: first.sessionId }))?.events ?? [];
      expect(events.filter((e) => e.meta?.kind === 'plan-memory')).toHaveLength(1);
    }
  });

  it("graph mode with streamingPlan: the plan is kept (past plans are not recalled: the streamed call is the planner's own)", async () => {
    const store = new ScriptedMemoryStore();
    const graph = {
      steps: [
        { id: 'a', task: 'find flights', dependsOn: [] },
        { id: 'b', task: 'book $a', dependsOn: ['a'] },
      ],
    };
    const models = scriptPlanExecute({ plan: graph, steps: { a: 'TP1', b: 'booked TP1' }, answer: 'TP1' });
    const out = await run(store, 'Book a flight to Porto', { models, extra: { mode: 'graph', streamingPlan: true } });
    expect(out.result.status).toBe('completed');
    expect(store.items[0]?.metadata).toMatchObject({ plan: graph, outcome: { status: 'completed', steps: 2 } });
  });

  it('a second message in the same session is planned, recalled and kept on its own', async () => {
    const store = new ScriptedMemoryStore();
    const models = script();
    const agent = createPlanExecuteAgent({ ...models, memory: { store } });
    const runner = new Runner({ agent, appName: 'travel', sessionStore: new InMemorySessionStore() });
    const first = await runner.run({ userId: 'alice', input: 'Book the cheapest flight from Lisbon to Porto' }).result();
    const second = await runner
      .run({ userId: 'alice', sessionId: first.sessionId, input: 'Now the cheapest flight from Porto to Faro' })
      .result();
    expect(second.status).toBe('completed');
    expect(store.items.map((i) => i.text)).toEqual([
      'Book the cheapest flight from Lisbon to Porto',
      'Now the cheapest flight from Porto to Faro',
    ]);
    expect(plannerText(models.plannerModel.requests[1])).toContain('objective: Book the cheapest flight from Lisbon to Porto');
  });

  it('a 1 MB objective: recalled and kept by its first 4,000 characters, the run goes on', async () => {
    const store = new InMemoryMemoryStore();
    const input = `Book a flight to Porto ${'x'.repeat(1024 * 1024)}`;
    const out = await run(store, input, { memory: { reusePlans: { minScore: 0.9 } } });
    expect(out.result.status, out.result.error?.message).toBe('completed');
    const [kept] = (await store.list({ scope: { appName: 'travel', userId: 'alice' } })).items;
    expect(kept?.text).toBe(input.slice(0, 4000));
  });

  it('bad memory options are a ConfigurationError naming the field', () => {
    const models = script();
    const store = new ScriptedMemoryStore();
    expect(() => createPlanExecuteAgent({ ...models, memory: {} as never })).toThrow(ConfigurationError);
    expect(() => createPlanExecuteAgent({ ...models, memory: { store, reusePlans: {} as never } })).toThrow(/reusePlans.minScore/);
    expect(() => createPlanExecuteAgent({ ...models, memory: { store, reusePlans: { minScore: 27 } } })).toThrow(/from 0 to 1/);
    expect(() => createPlanExecuteAgent({ ...models, memory: { store, scope: 'bob' as never } })).toThrow(/memory.scope/);
    expect(() => createPlanExecuteAgent({ ...models, memory: { store, k: -1 } })).toThrow(/memory.k/);
    const custom = new ReActAgent({ name: 'my_planner', model: models.plannerModel });
    expect(() => createPlanExecuteAgent({ ...models, planner: custom, memory: { store } })).toThrow(
      /needs a planner from createPlanner, but "my_planner"/,
    );
  });
});
