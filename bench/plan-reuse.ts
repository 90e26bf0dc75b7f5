/**
 * Plan reuse: 30 objectives drawn from 6 task templates (5 each, taken in turn), run one after
 * another by `createPlanExecuteAgent` on scripted models, four ways: no memory; memory with the
 * past plans shown to the planner; `reusePlans` with the adapting call made by the planner's model;
 * `reusePlans` with a cheap adapting model. Tokens are counted from the requests (4 characters a
 * token: messages and tools as JSON) and the answers; prices as in the prompt-cache bench ($2 input,
 * $8 output per million tokens), the cheap model at $0.15 / $0.60.
 * Run: pnpm bench plan-reuse (or: pnpm build && npx tsx bench/plan-reuse.ts)
 */
import { InMemorySessionStore, Runner, tool, type AgentEvent, type ModelRequest } from '@replan/core';
import { z } from 'zod';
import { ScriptedModel, callTools } from '@replan/core/testing';
import { InMemoryMemoryStore } from '@replan/memory';
import { createPlanExecuteAgent } from '@replan/planexecute';
import { scriptPlanExecute } from '@replan/planexecute/testing';
import { table } from './measure.js';

const CHARS_PER_TOKEN = 4;
const PRICE = { input: 2, output: 8 }; // USD per million tokens (the prompt-cache bench's)
const CHEAP = { input: 0.15, output: 0.6 };

interface Template {
  readonly objective: (v: readonly string[]) => string;
  readonly steps: (v: readonly string[]) => string[];
  readonly values: readonly (readonly string[])[];
}

const TEMPLATES: readonly Template[] = [
  {
    objective: ([a, b]) => `Book the cheapest flight from ${a} to ${b} next Friday, one checked bag`,
    steps: ([a, b]) => [
      `Search flights from ${a} to ${b} for next Friday`,
      'Compare fares including one checked bag',
      'Book the cheapest fare and send the confirmation',
    ],
    values: [
      ['Lisbon', 'Porto'],
      ['Berlin', 'Vienna'],
      ['Madrid', 'Rome'],
      ['Oslo', 'Paris'],
      ['Dublin', 'Prague'],
    ],
  },
  {
    objective: ([c]) => `Summarise last quarter's revenue, costs and margin for ${c} from the finance reports`,
    steps: ([c]) => [
      `Fetch last quarter's finance reports for ${c}`,
      'Extract revenue, costs and margin',
      'Compare with the quarter before',
      `Write a one-page summary for ${c}`,
    ],
    values: [['Acme'], ['Globex'], ['Initech'], ['Umbrella'], ['Hooli']],
  },
  {
    objective: ([p]) => `Triage the open bug reports of ${p}, label them by severity and assign owners`,
    steps: ([p]) => [
      `List the open bug reports of ${p}`,
      'Label each report by severity',
      'Assign an owner to each critical and major report',
      'Post the triage summary to the team channel',
    ],
    values: [['the mobile app'], ['the billing service'], ['the web dashboard'], ['the search API'], ['the installer']],
  },
  {
    objective: ([n]) => `Plan a team offsite in ${n} for twelve people: venue, travel and a two-day agenda`,
    steps: ([n]) => [
      `Find venues in ${n} for twelve people`,
      'Get travel options for the team',
      'Draft a two-day agenda',
      'Send the plan for approval',
    ],
    values: [['Lisbon'], ['Krakow'], ['Valencia'], ['Tallinn'], ['Ghent']],
  },
  {
    objective: ([x]) => `Compare the three best-rated ${x} under 500 euros and recommend one`,
    steps: ([x]) => [
      `Search reviews of ${x} under 500 euros`,
      'Pick the three best-rated',
      'Compare their specifications and prices',
      'Recommend one with reasons',
    ],
    values: [['laptops'], ['espresso machines'], ['road bikes'], ['monitors'], ['robot vacuums']],
  },
  {
    objective: ([k]) => `Prepare the onboarding checklist for a new ${k}: accounts, equipment and first-week meetings`,
    steps: ([k]) => [
      `Create the accounts a ${k} needs`,
      'Order the equipment',
      'Schedule the first-week meetings',
      'Send the checklist to the manager',
    ],
    values: [['backend engineer'], ['designer'], ['sales lead'], ['data analyst'], ['support agent']],
  },
];

// Six tools with the descriptions a real deployment has: the planner's prompt lists them (as it
// would), so its size is not that of a toy prompt. The scripted steps do not call them.
const TOOLS = ['search_web', 'read_document', 'query_database', 'send_message', 'create_ticket', 'book_travel'].map((name) =>
  tool({
    name,
    description: `${name.replace('_', ' ')}: ${'Takes the arguments below, checks permissions, runs against the company systems and returns a JSON result with the fields the step needs, or an error that says what to fix. '.repeat(3)}`,
    parameters: z.object({ query: z.string().describe('What to look up or act on, in plain words.'), limit: z.number().optional() }),
    execute: () => 'not called',
  }),
);

/** The 30 objectives, templates in turn: the first six are each template's first. */
const WORKLOAD = [0, 1, 2, 3, 4].flatMap((i) => TEMPLATES.map((t, template) => ({ template, values: t.values[i] as readonly string[] })));

const tokensOf = (text: string) => Math.ceil(text.length / CHARS_PER_TOKEN);
const requestTokens = (r: ModelRequest) =>
  tokensOf(JSON.stringify({ messages: r.messages, tools: r.tools ?? [], format: r.responseFormat ?? null }));

interface Mode {
  readonly name: string;
  readonly memory: boolean;
  readonly reuse: boolean;
  readonly adaptPrice?: { input: number; output: number };
}

interface Totals {
  plannerCalls: number;
  adaptCalls: number;
  reused: number;
  wrongReuse: number;
  planningInput: number;
  planningCost: number;
  input: number;
  output: number;
  cost: number;
}

async function runMode(mode: Mode): Promise<Totals> {
  const memory = new InMemoryMemoryStore();
  const sessions = new InMemorySessionStore();
  const t: Totals = {
    plannerCalls: 0,
    adaptCalls: 0,
    reused: 0,
    wrongReuse: 0,
    planningInput: 0,
    planningCost: 0,
    input: 0,
    output: 0,
    cost: 0,
  };
  const objectiveTemplate = new Map<string, number>();
  for (const { template, values } of WORKLOAD) {
    const tpl = TEMPLATES[template] as Template;
    const objective = tpl.objective(values);
    objectiveTemplate.set(objective, template);
    const plan = { steps: tpl.steps(values) };
    const models = scriptPlanExecute(
      { plan, steps: Object.fromEntries(plan.steps.map((s) => [s, `Done: ${s}.`])), answer: `Finished: ${objective}` },
      { id: 'bench-model', usage: (r) => ({ inputTokens: requestTokens(r), outputTokens: 0 }) },
    );
    // The adapting model knows the templates: it returns this objective's plan (the scripted truth).
    const adaptModel = new ScriptedModel({
      id: 'adapt-model',
      respond: (r) => {
        const message = callTools({ name: 'plan', args: plan });
        return {
          message,
          finishReason: 'tool_calls',
          usage: { inputTokens: requestTokens(r), outputTokens: tokensOf(JSON.stringify(plan)) },
        };
      },
    });
    const agent = createPlanExecuteAgent({
      ...models,
      tools: TOOLS,
      ...(mode.memory ? { memory: { store: memory, ...(mode.reuse ? { reusePlans: { minScore: 0.6, adaptModel } } : {}) } } : {}),
    });
    const result = await new Runner({ agent, appName: 'bench', sessionStore: sessions }).run({ userId: 'u', input: objective }).result();
    if (result.status !== 'completed') throw new Error(`plan-reuse bench: "${objective}" ended ${result.status}: ${result.error?.message}`);
    const events = (await sessions.get({ appName: 'bench', userId: 'u', id: result.sessionId }))?.events ?? [];
    const reused = events.find((e) => e.meta?.reusedPlan)?.meta?.reusedPlan as { objective?: string } | undefined;
    if (reused) {
      t.reused++;
      if (objectiveTemplate.get(reused.objective ?? '') !== template) t.wrongReuse++;
    }
    t.plannerCalls += models.plannerModel.calls;
    t.adaptCalls += adaptModel.calls;
    tally(t, events, mode);
  }
  return t;
}

/** Adds a run's tokens and cost: input from each call's usage, output from each stored answer. */
function tally(t: Totals, events: readonly AgentEvent[], mode: Mode): void {
  for (const e of events) {
    if (e.partial || !e.usage) continue;
    const adapted = (e.meta?.reusedPlan as { adapted?: boolean } | undefined)?.adapted === true;
    const price = adapted && mode.adaptPrice ? mode.adaptPrice : PRICE;
    const input = e.usage.inputTokens;
    const output = e.usage.outputTokens || (e.message?.role === 'assistant' ? tokensOf(JSON.stringify(e.message.content)) : 0);
    t.input += input;
    t.output += output;
    const cost = (input * price.input + output * price.output) / 1e6;
    if (/\/planner$/.test(e.path)) {
      t.planningInput += input;
      t.planningCost += cost;
    }
    t.cost += cost;
  }
}

export async function planReuseBench(): Promise<string> {
  const modes: Mode[] = [
    { name: 'no memory', memory: false, reuse: false },
    { name: 'memory: past plans shown to the planner', memory: true, reuse: false },
    { name: 'reusePlans (minScore 0.6), adapted by the planner model', memory: true, reuse: true },
    { name: 'reusePlans (minScore 0.6), adapted by a cheap model', memory: true, reuse: true, adaptPrice: CHEAP },
  ];
  const rows: (string | number)[][] = [];
  for (const mode of modes) {
    const t = await runMode(mode);
    rows.push([
      mode.name,
      t.plannerCalls,
      `${t.reused}${t.wrongReuse ? ` (${t.wrongReuse} of another template)` : ''}`,
      t.adaptCalls,
      `${(t.planningInput / 1000).toFixed(1)}k`,
      `$${t.planningCost.toFixed(4)}`,
      `${(t.input / 1000).toFixed(1)}k`,
      `$${t.cost.toFixed(4)}`,
    ]);
  }
  const head = `Plan reuse — ${WORKLOAD.length} objectives from ${TEMPLATES.length} templates (scripted models; tokens from request sizes)\n\n`;
  return (
    head + table(['run', 'planner calls', 'plans reused', 'adapting calls', 'planning input', 'planning cost', 'all input', 'cost'], rows)
  );
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(await planReuseBench());
