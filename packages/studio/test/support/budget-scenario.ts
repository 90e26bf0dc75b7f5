import { Runner, type SessionStore } from '@replan/core';
import { callTools, reply, ScriptedModel } from '@replan/core/testing';
import { createPlanExecuteAgent } from '@replan/planexecute';

export const BUDGET_APP = 'budget-app';
const STEPS = ['Collect the Q3 sales figures', 'Collect the Q3 support tickets', 'Compare the two'];
const ESTIMATES = [
  { tokens: 400, modelCalls: 1 },
  { tokens: 400, modelCalls: 1 },
];
const limits = { maxModelCalls: 6, maxTokens: 5000, onExhausted: 'answer', reserve: { modelCalls: 1 } } as const;

/**
 * A plan–execute run with limits and `onExhausted: 'answer'`: session `review` waits at its plan
 * review (which carries the forecast: two steps estimated, one not); session `partial` was approved
 * and ran out of model calls after its first step, so the replanner answered from it (partial,
 * two steps not run). Scripted: each process's models answer in order.
 */
export async function budgetScenario(store: SessionStore): Promise<Runner> {
  const plan = callTools({ name: 'plan', args: { steps: STEPS, estimates: ESTIMATES } });
  const agent = createPlanExecuteAgent({
    plannerModel: new ScriptedModel({ id: 'planner', responses: [plan, plan] }),
    executorModel: new ScriptedModel({ id: 'executor', responses: [reply('Q3 sales: 1,240 orders.')] }),
    replannerModel: new ScriptedModel({
      id: 'replanner',
      responses: [
        callTools({ name: 'plan', args: { steps: STEPS.slice(1) } }),
        callTools({ name: 'respond', args: { response: 'Q3 had 1,240 orders; the support tickets were not collected in budget.' } }),
      ],
    }),
    review: { plan: true },
  });
  const runner = new Runner({ agent, appName: BUDGET_APP, sessionStore: store });
  await runner.run({ userId: 'ana', sessionId: 'review', input: 'Compare Q3 sales and support.', limits }).result();
  const stopped = await runner.run({ userId: 'ana', sessionId: 'partial', input: 'Compare Q3 sales and support.', limits }).result();
  const review = stopped.interrupts[0]?.id as string;
  const done = await runner
    .resume({ userId: 'ana', sessionId: 'partial', values: { [review]: { approve: true } }, limits: { ...limits, maxModelCalls: 3 } })
    .result();
  if (done.status !== 'completed' || !done.partial)
    throw new Error(`budget scenario: expected a partial answer, got ${done.status} ${JSON.stringify(done.error?.message)}`);
  return runner;
}
