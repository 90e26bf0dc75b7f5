import { describe, expect, it } from 'vitest';
import { InMemorySessionStore, Runner, messageText, type ModelRequest } from '@replan/core';
import { ScriptedModel } from '@replan/core/testing';
import { InMemoryMemoryStore, consolidate, recallMemories } from '@replan/memory';
import { createPlanExecuteAgent } from '@replan/planexecute';
import { scriptPlanExecute } from '@replan/planexecute/testing';

const PLAN = { steps: ['find flights to Porto', 'book the cheapest'] };
const USER = { appName: 'travel', userId: 'alice' };
const textOf = (r: ModelRequest | undefined) => (r?.messages ?? []).map((m) => messageText(m)).join('\n');

// @replan/memory's middleware given to every role of a plan–execute agent (one list): recall goes
// to the planner only, consolidation runs once, on the replanner's answer.
describe('memory middleware in a plan–execute agent', () => {
  it('one list for all roles: the planner recalls, executor and replanner do not; one consolidation at the answer', async () => {
    const store = new InMemoryMemoryStore();
    await store.put({ scope: USER, kind: 'fact', text: 'Alice always flies with a window seat to Porto', source: { sessionId: 'old' } });
    const models = scriptPlanExecute({
      plan: PLAN,
      steps: { [PLAN.steps[0] as string]: 'TP1, TP2', [PLAN.steps[1] as string]: 'TP1 booked' },
      answer: 'TP1',
    });
    const extractor = new ScriptedModel({ id: 'cheap', respond: () => JSON.stringify({ facts: ['Alice booked TP1 to Porto'] }) });
    const agent = createPlanExecuteAgent({
      ...models,
      middleware: [recallMemories({ store }), consolidate({ model: extractor, store })],
    });
    const sessions = new InMemorySessionStore();
    const result = await new Runner({ agent, appName: 'travel', sessionStore: sessions })
      .run({ userId: 'alice', input: 'Book a flight to Porto' })
      .result();
    expect(result.status).toBe('completed');
    expect(textOf(models.plannerModel.requests[0])).toContain('Alice always flies with a window seat to Porto');
    for (const r of [...models.executorModel.requests, ...models.replannerModel.requests]) expect(textOf(r)).not.toContain('window seat');
    expect(extractor.calls).toBe(1);
    const events = (await sessions.get({ ...USER, id: result.sessionId }))?.events ?? [];
    const consolidation = events.filter((e) => e.meta?.middleware === 'consolidate');
    expect(consolidation.map((e) => e.path)).toEqual(['plan_execute/execute_replan/replanner']);
    const facts = (await store.list({ scope: USER, kinds: ['fact'] })).items.map((i) => i.text);
    expect(facts).toEqual(['Alice always flies with a window seat to Porto', 'Alice booked TP1 to Porto']);
  });
});
