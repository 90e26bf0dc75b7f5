import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileSessionStore, Runner, type Interrupt, type RunResult, type SessionStore } from '@replan/core';
import { createPlanExecuteAgent, type DefaultPlan, type PlanReviewAnswer, type PlanReviewPayload } from '@replan/planexecute';
import { scriptPlanExecute } from '@replan/planexecute/testing';

/** What the offline "models" do: the plan they write and each step's result. */
const steps = {
  'Find flights to Lisbon': 'TAP 09:10, 120 EUR',
  'Find trains to Lisbon': 'Night train 21:40, 80 EUR',
  'Book the cheapest option': 'Booked the night train (80 EUR)',
};
const firstPlan: DefaultPlan = { steps: ['Find flights to Lisbon', 'Book the cheapest option'] };
const withTrains: DefaultPlan = { steps: ['Find flights to Lisbon', 'Find trains to Lisbon', 'Book the cheapest option'] };

/**
 * One process of the app: a plan–execute agent whose plans a person reviews, over a file store.
 * Each answer below is given by a new process (new agent, new Runner), as after a restart.
 */
function app(store: SessionStore, plan: DefaultPlan) {
  // After each step the replanner keeps the rest of the plan: an unchanged plan needs no new review.
  const replans = plan.steps.slice(1).map((_, i) => ({ steps: plan.steps.slice(i + 1) }));
  const models = scriptPlanExecute({ plan, steps, replans, answer: 'Your trip to Lisbon is booked.' });
  const agent = createPlanExecuteAgent({ model: models.model, review: { plan: true, replans: 'changed' } });
  return new Runner({ agent, appName: 'trips', sessionStore: store });
}

const reviewOf = (result: RunResult): Interrupt & { payload: PlanReviewPayload<DefaultPlan> } => {
  const review = result.interrupts.find((i) => i.reason === 'plan_review');
  if (!review) throw new Error(`expected a plan review, the run ended ${result.status}`);
  return review as Interrupt & { payload: PlanReviewPayload<DefaultPlan> };
};

export interface Outcome {
  readonly answer: string;
  /** The plans the person was shown, in order. */
  readonly reviewed: readonly (readonly string[])[];
  /** The steps that ran. */
  readonly ran: readonly string[];
  readonly output: string | undefined;
}

/**
 * Plans a trip, and answers the plan review(s) in order, each in a new process scripted with the
 * plan that process will run (the planner's new plan after a rejection, the person's after an edit).
 */
async function trip(store: SessionStore, name: string, answers: readonly [PlanReviewAnswer<DefaultPlan>, DefaultPlan][]): Promise<Outcome> {
  let result = await app(store, firstPlan).run({ userId: 'me', input: 'Get me to Lisbon on Friday, cheaply.' }).result();
  const reviewed: string[][] = [];
  for (const [answer, nextPlan] of answers) {
    const review = reviewOf(result);
    reviewed.push([...review.payload.plan.steps]);
    result = await app(store, nextPlan)
      .resume({ userId: 'me', sessionId: result.sessionId, values: { [review.id]: answer } })
      .result();
  }
  const session = await store.get({ appName: 'trips', userId: 'me', id: result.sessionId });
  const ran = ((session?.state.ExecutedSteps ?? []) as { step: string }[]).map((s) => s.step);
  return { answer: name, reviewed, ran, output: result.output };
}

/** The three answers to a plan review: approve it, edit it, reject it with feedback. */
export async function planReviewDemo(dir?: string): Promise<Outcome[]> {
  const store = new FileSessionStore({ dir: dir ?? (await mkdtemp(join(tmpdir(), 'replan-plan-review-'))) });
  return [
    await trip(store, 'approve', [[{ approve: true }, firstPlan]]),
    await trip(store, 'edit', [[{ edit: withTrains }, withTrains]]),
    await trip(store, 'reject', [
      [{ reject: 'Check the trains too.' }, withTrains],
      [{ approve: true }, withTrains],
    ]),
  ];
}
