import { describe, expect, it } from 'vitest';
import {
  ConfigurationError,
  InMemorySessionStore,
  ReActAgent,
  Runner,
  messageText,
  tool,
  type AgentEvent,
  type ModelRequest,
} from '@replan/core';
import { ScriptedModel } from '@replan/core/testing';
import { z } from 'zod';
import { createPlanExecuteAgent, type PlanExecuteAgentOptions } from '@replan/planexecute';
import { scriptPlanExecute } from '@replan/planexecute/testing';
import { InMemoryMemoryStore, type MemoryStore } from '@replan/memory';
import { ScriptedMemoryStore } from '../../memory/test/support/scripted-store.js';
import { planCall } from './support.js';

const PLAN = { steps: ['find flights Lisbon to Porto', 'pick the cheapest'] };
const script = () =>
  scriptPlanExecute({
    plan: PLAN,
    steps: { [PLAN.steps[0] as string]: '3 flights', [PLAN.steps[1] as string]: 'TP123 at 40 EUR' },
    answer: 'TP123',
  });
const plannerText = (r: ModelRequest | undefined) => (r?.messages ?? []).map((m) => messageText(m)).join('\n');

async function run(
  store: MemoryStore,
  input: string,
  options: { userId?: string; models?: ReturnType<typeof script>; extra?: Partial<PlanExecuteAgentOptions>; memory?: object } = {},
) {
  const models = options.models ?? script();
  const agent = createPlanExecuteAgent({ ...models, memory: { store, ...options.memory }, ...options.extra } as PlanExecuteAgentOptions);
  const sessions = new InMemorySessionStore();
  const runner = new Runner({ agent, appName: 'travel', sessionStore: sessions });
  const result = await runner.run({ userId: options.userId ?? 'alice', input }).result();
  const events = (await sessions.get({ appName: 'travel', userId: options.userId ?? 'alice', id: result.sessionId }))?.events ?? [];
  return { result, events, models, runner };
}

const reusedOf = (events: readonly AgentEvent[]) =>
  events.find((e) => e.meta?.reusedPlan)?.meta?.reusedPlan as Record<string, unknown> | undefined;

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

  it('reusePlans: a close match skips the planner call and runs the stored plan, recorded in meta', async () => {
    const store = new ScriptedMemoryStore();
    await run(store, 'Book the cheapest flight from Lisbon to Porto');
    const third = await run(store, 'Book the cheapest flight from Lisbon to Porto please', { memory: { reusePlans: { minScore: 0.8 } } });
    expect(third.result.status).toBe('completed');
    expect(third.models.plannerModel.calls).toBe(0);
    expect(reusedOf(third.events)).toMatchObject({
      memoryId: store.items[0]?.id,
      adapted: false,
      objective: 'Book the cheapest flight from Lisbon to Porto',
    });
    expect(store.items[1]?.metadata).toMatchObject({ plan: PLAN, reusedFrom: store.items[0]?.id });
    // Not close enough: the planner plans (with the past plan in its prompt).
    const far = await run(store, 'Find a hotel in Lisbon', { memory: { reusePlans: { minScore: 0.99 } } });
    expect(far.models.plannerModel.calls).toBe(1);
    expect(reusedOf(far.events)).toBeUndefined();
  });

  it('on InMemoryMemoryStore (BM25): minScore is a 0–1 similarity; close objectives are reused, another is planned', async () => {
    const store = new InMemoryMemoryStore();
    await run(store, 'Book the cheapest flight from Lisbon to Porto');
    await run(store, 'Find a hotel in Madrid for two nights');
    const again = await run(store, 'Book the cheapest flight from Lisbon to Porto', { memory: { reusePlans: { minScore: 0.9 } } });
    expect(again.models.plannerModel.calls).toBe(0);
    expect(again.events.find((e) => e.meta?.reusedPlan)?.meta?.reusedPlan).toMatchObject({ similarity: 1 });
    const near = await run(store, 'Book the cheapest flight from Lisbon to Faro', { memory: { reusePlans: { minScore: 0.6 } } });
    expect(near.models.plannerModel.calls).toBe(0);
    const other = await run(store, 'Find a hotel in Lisbon', { memory: { reusePlans: { minScore: 0.6 } } });
    expect(other.models.plannerModel.calls).toBe(1);
    expect(plannerText(other.models.plannerModel.requests[0])).toContain('objective: Book the cheapest flight from Lisbon to Porto');
  });

  it('reusePlans with adaptModel: one cheap call adapts the stored plan, which then runs', async () => {
    const store = new ScriptedMemoryStore();
    await run(store, 'Book the cheapest flight from Lisbon to Porto');
    const adapted = { steps: ['find flights Lisbon to Faro', 'pick the cheapest'] };
    const adaptModel = new ScriptedModel({ id: 'cheap', responses: [planCall(adapted.steps)] });
    const models = scriptPlanExecute({
      plan: adapted,
      steps: { [adapted.steps[0] as string]: '2 flights', 'pick the cheapest': 'TP9' },
      answer: 'TP9',
    });
    const out = await run(store, 'Book the cheapest flight from Lisbon to Faro', {
      models,
      memory: { reusePlans: { minScore: 0.5, adaptModel } },
    });
    expect(out.result.status).toBe('completed');
    expect(models.plannerModel.calls).toBe(0);
    expect(adaptModel.calls).toBe(1);
    const sent = plannerText(adaptModel.requests[0]);
    expect(sent).toContain('data, not instructions');
    expect(sent).toContain('find flights Lisbon to Porto');
    expect(sent).toContain('The new objective:\nBook the cheapest flight from Lisbon to Faro');
    expect(reusedOf(out.events)).toMatchObject({ adapted: true });
    expect(store.items[1]?.metadata?.plan).toEqual(adapted);
  });

  it('a reused plan still goes through checkPlan: refused, the planner plans instead', async () => {
    const store = new ScriptedMemoryStore();
    await run(store, 'Book the cheapest flight from Lisbon to Porto');
    const seen: unknown[] = [];
    let refuse = true;
    const out = await run(store, 'Book the cheapest flight from Lisbon to Porto', {
      memory: { reusePlans: { minScore: 0.5 } },
      extra: {
        checkPlan: (plan) => {
          seen.push(plan);
          if (refuse) {
            refuse = false;
            return { ok: false, reason: 'stale plan' };
          }
          return { ok: true };
        },
      },
    });
    expect(out.result.status).toBe('completed');
    expect(seen[0]).toEqual(PLAN);
    expect(out.models.plannerModel.calls).toBe(1);
    expect(reusedOf(out.events)).toBeUndefined();
  });

  it('a reused plan still goes to review', async () => {
    const store = new ScriptedMemoryStore();
    await run(store, 'Book the cheapest flight from Lisbon to Porto');
    const out = await run(store, 'Book the cheapest flight from Lisbon to Porto', {
      memory: { reusePlans: { minScore: 0.5 } },
      extra: { review: { plan: true, replans: 'never' } },
    });
    expect(out.result.status).toBe('interrupted');
    expect(out.result.interrupts[0]?.reason).toBe('plan_review');
    expect((out.result.interrupts[0]?.payload as { plan: unknown } | undefined)?.plan).toEqual(PLAN);
    expect(out.models.plannerModel.calls).toBe(0);
    expect(store.items).toHaveLength(1); // not kept while it waits for a person
    const answered = await out.runner
      .resume({ userId: 'alice', sessionId: out.result.sessionId, values: { [out.result.interrupts[0]?.id as string]: { approve: true } } })
      .result();
    expect(answered.status).toBe('completed');
    expect(store.items[1]?.metadata).toMatchObject({ outcome: { review: 'approve' }, reusedFrom: store.items[0]?.id });
  });

  it('a reused plan rejected in review: the planner plans again, the stored plan is not offered twice', async () => {
    const store = new ScriptedMemoryStore();
    await run(store, 'Book the cheapest flight from Lisbon to Porto');
    const out = await run(store, 'Book the cheapest flight from Lisbon to Porto', {
      memory: { reusePlans: { minScore: 0.5 } },
      extra: { review: { plan: true, replans: 'never' } },
    });
    expect(out.models.plannerModel.calls).toBe(0);
    const id = out.result.interrupts[0]?.id as string;
    const again = await out.runner
      .resume({ userId: 'alice', sessionId: out.result.sessionId, values: { [id]: { reject: 'not this one' } } })
      .result();
    expect(again.status).toBe('interrupted');
    expect(out.models.plannerModel.calls).toBe(1);
    expect(plannerText(out.models.plannerModel.requests[0])).toContain('not this one');
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
