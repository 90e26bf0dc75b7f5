/**
 * Three sessions of one user over a file store, each run by a new `Runner` as a new process would:
 * 1. a plan–execute agent plans a day trip; `consolidate` keeps the facts worth remembering from
 *    the conversation, and the run's plan is kept as a `plan` memory;
 * 2. a `ReActAgent` with `recallMemories` is asked for a restaurant: the fact from session 1 is in
 *    its request (quoted as data), and its answer follows from it;
 * 3. the same trip asked again: `reusePlans` starts from the stored plan, no planner call.
 * The models are scripted: what they answer comes from what they are sent.
 */
import { FileSessionStore, ReActAgent, Runner, messageText, type ModelRequest } from '@replan/core';
import { ScriptedModel } from '@replan/core/testing';
import { FileMemoryStore, consolidate, recallMemories, type MemoryItem } from '@replan/memory';
import { createPlanExecuteAgent } from '@replan/planexecute';
import { scriptPlanExecute } from '@replan/planexecute/testing';

const USER = 'ana';
const TRIP = 'Plan a day trip from Lisbon to Porto. I am vegetarian.';
const PLAN = { steps: ['Find trains from Lisbon to Porto', 'Pick a vegetarian lunch place in Porto'] };

/** What each session did, read from the stores. */
export interface TripMemoryOutcome {
  readonly first: { readonly output: string; readonly facts: readonly string[]; readonly plans: number };
  readonly second: { readonly output: string; readonly recalled: readonly string[] };
  readonly third: { readonly output: string; readonly plannerCalls: number; readonly reusedFrom: string | undefined };
}

const sentText = (request: ModelRequest) => request.messages.map((m) => messageText(m)).join('\n');

/** The trip agent: plan–execute with plan memory; the replanner's answer is consolidated into facts. */
function tripRunner(sessions: FileSessionStore, memory: FileMemoryStore, reuse: boolean) {
  const models = scriptPlanExecute({
    plan: PLAN,
    steps: {
      [PLAN.steps[0] as string]: 'IC 521 at 08:39, 2h49, 31 EUR',
      [PLAN.steps[1] as string]: 'Da Terra, Rua Mouzinho da Silveira 249',
    },
    answer: (r) => `Take ${r[PLAN.steps[0] as string]?.split(',')[0]}; lunch at ${r[PLAN.steps[1] as string]?.split(',')[0]}.`,
  });
  // The fact extractor keeps what the conversation says about the user, and nothing it does not say.
  const extractor = new ScriptedModel({
    id: 'cheap-extractor',
    respond: (request) => JSON.stringify({ facts: /I am vegetarian/.test(sentText(request)) ? ['Ana eats vegetarian food only'] : [] }),
  });
  const agent = createPlanExecuteAgent({
    ...models,
    memory: { store: memory, ...(reuse ? { reusePlans: { minScore: 0.9 } } : {}) },
    middleware: { replanner: [consolidate({ model: extractor, store: memory })] },
  });
  return { runner: new Runner({ agent, appName: 'trips', sessionStore: sessions }), models };
}

/** The concierge: a ReAct agent that recalls what is known about the user before it answers. */
function conciergeRunner(sessions: FileSessionStore, memory: FileMemoryStore) {
  const model = new ScriptedModel({
    id: 'concierge',
    respond: (request) =>
      /Ana eats vegetarian food/.test(sentText(request))
        ? 'Da Terra: a vegetarian buffet on Rua Mouzinho da Silveira.'
        : 'Cantinho do Avillez, for francesinha.',
  });
  const agent = new ReActAgent({
    name: 'concierge',
    model,
    instruction: 'Suggest one restaurant.',
    middleware: [recallMemories({ store: memory, kinds: ['fact'] })],
  });
  return new Runner({ agent, appName: 'trips', sessionStore: sessions });
}

const allOf = async (memory: FileMemoryStore, kind: MemoryItem['kind']) =>
  (await memory.list({ scope: { appName: 'trips', userId: USER }, kinds: [kind] })).items;

/** Runs the three sessions in `dir` (sessions and memories side by side). */
export async function tripMemoryDemo(dir: string): Promise<TripMemoryOutcome> {
  const first = await tripRunner(new FileSessionStore({ dir }), new FileMemoryStore({ dir }), false)
    .runner.run({ userId: USER, input: TRIP })
    .result();
  let memory = new FileMemoryStore({ dir });
  const facts = (await allOf(memory, 'fact')).map((f) => f.text);
  const plans = (await allOf(memory, 'plan')).length;

  const concierge = conciergeRunner(new FileSessionStore({ dir }), new FileMemoryStore({ dir }));
  const second = await concierge.run({ userId: USER, input: 'Which restaurant in Porto has good food for me?' }).result();
  const secondEvents = (await new FileSessionStore({ dir }).get({ appName: 'trips', userId: USER, id: second.sessionId }))?.events ?? [];
  const recalled = secondEvents.flatMap((e) => ((e.meta?.memory as { recalled?: { text: string }[] })?.recalled ?? []).map((r) => r.text));

  memory = new FileMemoryStore({ dir });
  const trip = tripRunner(new FileSessionStore({ dir }), memory, true);
  const third = await trip.runner.run({ userId: USER, input: TRIP }).result();
  const thirdEvents = (await new FileSessionStore({ dir }).get({ appName: 'trips', userId: USER, id: third.sessionId }))?.events ?? [];
  const reused = thirdEvents.find((e) => e.meta?.reusedPlan)?.meta?.reusedPlan as { memoryId?: string } | undefined;
  return {
    first: { output: first.output ?? '', facts, plans },
    second: { output: second.output ?? '', recalled },
    third: { output: third.output ?? '', plannerCalls: trip.models.plannerModel.calls, reusedFrom: reused?.memoryId },
  };
}
