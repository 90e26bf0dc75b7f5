import { Runner, type SessionStore } from '@replan/core';
// By path: the studio does not depend on @replan/memory (it reads what memory recorded in the log).
import { InMemoryMemoryStore, recallMemories } from '../../../memory/src/index.js';
import { createPlanExecuteAgent } from '@replan/planexecute';
import { scriptPlanExecute } from '@replan/planexecute/testing';

/** The studio's memory scenario: a run that plans and is kept, a fact to recall, and a run that reuses the plan. */
export async function memoryScenario(store: SessionStore): Promise<{ runner: Runner; planned: string; reused: string }> {
  const memory = new InMemoryMemoryStore();
  const user = { appName: 'trips', userId: 'ana' };
  await memory.put({
    scope: user,
    kind: 'fact',
    text: 'Ana flies from Lisbon and prefers aisle seats',
    source: { sessionId: 'onboarding' },
  });
  const plan = { steps: ['find flights from Lisbon to Porto', 'pick the cheapest aisle seat'] };
  const models = scriptPlanExecute({
    plan,
    steps: { [plan.steps[0] as string]: '3 flights: TP1 40 EUR, FR2 35 EUR, TP3 60 EUR', [plan.steps[1] as string]: 'FR2, seat 14C' },
    answer: 'Booked FR2 (35 EUR), aisle seat 14C.',
  });
  const agent = createPlanExecuteAgent({
    ...models,
    memory: { store: memory, reusePlans: { minScore: 0.9 } },
    middleware: { planner: [recallMemories({ store: memory, kinds: ['fact'] })] },
  });
  const runner = new Runner({ agent, appName: 'trips', sessionStore: store });
  const input = 'Book the cheapest flight from Lisbon to Porto';
  await runner.run({ userId: 'ana', sessionId: 'first-trip', input }).result();
  await runner.run({ userId: 'ana', sessionId: 'second-trip', input }).result();
  return { runner, planned: 'first-trip', reused: 'second-trip' };
}
