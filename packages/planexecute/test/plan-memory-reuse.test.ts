import { describe, expect, it } from 'vitest';
import { ScriptedModel } from '@replan/core/testing';
import { scriptPlanExecute } from '@replan/planexecute/testing';
import { InMemoryMemoryStore } from '@replan/memory';
import { ScriptedMemoryStore } from '../../memory/test/support/scripted-store.js';
import { planCall } from './support.js';
import { PLAN, plannerText, reusedOf, run } from './support/plan-memory-run.js';

describe('plan–execute memory: reusing a stored plan', () => {
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
});
