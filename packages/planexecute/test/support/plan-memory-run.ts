import { InMemorySessionStore, Runner, messageText, type AgentEvent, type ModelRequest } from '@replan/core';
import { createPlanExecuteAgent, type PlanExecuteAgentOptions } from '@replan/planexecute';
import { scriptPlanExecute } from '@replan/planexecute/testing';
import type { MemoryStore } from '@replan/memory';

// The plan-memory tests' run: a scripted two-step travel plan–execute agent with plan memory on `store`.
export const PLAN = { steps: ['find flights Lisbon to Porto', 'pick the cheapest'] };
export const script = () =>
  scriptPlanExecute({
    plan: PLAN,
    steps: { [PLAN.steps[0] as string]: '3 flights', [PLAN.steps[1] as string]: 'TP123 at 40 EUR' },
    answer: 'TP123',
  });
export const plannerText = (r: ModelRequest | undefined) => (r?.messages ?? []).map((m) => messageText(m)).join('\n');

export async function run(
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

export const reusedOf = (events: readonly AgentEvent[]) =>
  events.find((e) => e.meta?.reusedPlan)?.meta?.reusedPlan as Record<string, unknown> | undefined;
