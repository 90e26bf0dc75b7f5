import { InMemorySessionStore } from '@replan/core';
import { describe, expect, it } from 'vitest';
import { eventRow, eventView } from '../src/view/event-views.js';
import { memoryScenario } from './support/memory-scenario.js';

describe('long-term memory in the studio views', () => {
  it("a run's recalled memories, its reused plan and the plan it kept: rows and details", async () => {
    const store = new InMemorySessionStore();
    const { runner, planned, reused } = await memoryScenario(store);
    const eventsOf = async (id: string) => (await store.get({ appName: runner.appName, userId: 'ana', id }))?.events ?? [];

    const first = await eventsOf(planned);
    const rows = first.map((e, i) => eventRow(e, i, first));
    const recalledFacts = rows.find((r) => r.summary.startsWith('Recalled 1 memory'));
    expect(recalledFacts?.summary).toBe('Recalled 1 memory: Ana flies from Lisbon and prefers aisle seats');
    const facts = eventView(first[recalledFacts?.index as number]!, recalledFacts?.index as number, first);
    expect(facts.memory?.entries).toEqual([
      expect.objectContaining({ kind: 'fact', text: 'Ana flies from Lisbon and prefers aisle seats', from: 'session onboarding' }),
    ]);
    expect(rows.some((r) => r.summary === 'Recalled 0 past plans')).toBe(true);
    expect(rows.some((r) => r.summary === "Kept this run's plan: Book the cheapest flight from Lisbon to Porto")).toBe(true);

    const second = await eventsOf(reused);
    const at = second.findIndex((e) => e.meta?.reusedPlan);
    expect(at).toBeGreaterThan(-1);
    expect(eventRow(second[at]!, at, second).summary).toBe(
      'Reused a past plan (as written): Book the cheapest flight from Lisbon to Porto',
    );
    expect(eventView(second[at]!, at, second).memory).toEqual({
      heading: 'Reused a past plan (as written)',
      entries: [{ kind: 'plan', text: 'Book the cheapest flight from Lisbon to Porto', from: `session ${planned}`, score: 1 }],
    });
    const recall = second.map((e, i) => eventRow(e, i, second)).find((r) => r.summary.startsWith('Recalled 1 past plan'));
    expect(recall?.summary).toBe('Recalled 1 past plan: Book the cheapest flight from Lisbon to Porto');
  });
});
