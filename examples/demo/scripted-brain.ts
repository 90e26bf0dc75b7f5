import { messageText, type Message, type ModelRequest } from '@replan/core';
import { callTools, ScriptedModel, type ScriptedReply } from '@replan/core/testing';

// The offline "model": it answers the planner, executor and replanner the way a capable model
// would for the demo's question, reading only what the agents send it (so the run is real:
// the tools run, the steps and results flow through the session).

const PLAN = [
  'Find how many people the support team will have after the March hires (search the staffing document).',
  'Find the Team plan price per seat per month (search the pricing document).',
  'Compute the yearly cost for that many seats on the Team plan.',
];
const REVISED = [
  'Find the discount for annual billing (search the billing document).',
  'Compute the yearly cost for 15 seats at 39 EUR per month with the annual discount applied.',
];

const lastMessage = (request: ModelRequest): Message | undefined => request.messages.at(-1);
const resultsOf = (text: string) => [...text.matchAll(/Result: (.*)/g)].map((m) => m[1] ?? '');

function executor(request: ModelRequest): ScriptedReply {
  const last = lastMessage(request);
  // The step is read from the executor's own instructions, never from tool results: a search result
  // that mentions another document must not change which step this is.
  const instructions = request.messages
    .filter((m) => m.role !== 'tool')
    .map(messageText)
    .join('\n');
  const step = (instructions.split('## YOUR STEP\n')[1] ?? '').split('\n')[0] ?? '';
  if (last?.role === 'tool') {
    const output = last.content.find((b) => b.type === 'tool_result')?.output;
    if (/staffing/i.test(step)) return 'The support team will have 15 people after March (12 today + 3 joining).';
    if (/pricing/i.test(step)) return 'The Team plan costs 39 EUR per seat per month.';
    if (/billing/i.test(step)) return 'Annual billing gives a 15% discount.';
    return `The yearly cost is ${String(output)} EUR.`;
  }
  if (/staffing/i.test(step)) return callTools({ name: 'search_docs', args: { query: 'support team people March' } });
  if (/pricing/i.test(step)) return callTools({ name: 'search_docs', args: { query: 'Team plan price seat month' } });
  if (/billing/i.test(step)) return callTools({ name: 'search_docs', args: { query: 'annual billing discount' } });
  if (/discount/i.test(step)) return callTools({ name: 'calculator', args: { expression: '15 * 39 * 12 * (1 - 0.15)' } });
  return callTools({ name: 'calculator', args: { expression: '15 * 39 * 12' } });
}

function replanner(request: ModelRequest): ScriptedReply {
  const progress = messageText(lastMessage(request));
  const results = resultsOf(progress);
  if (results.length === 1) return callTools({ name: 'plan', args: { steps: PLAN.slice(1) } });
  // after the price: notice that annual billing matters and revise the plan
  if (results.length === 2) return callTools({ name: 'plan', args: { steps: REVISED } });
  if (results.length === 3) return callTools({ name: 'plan', args: { steps: REVISED.slice(1) } });
  const cost = results.at(-1)?.match(/[\d.]+/)?.[0] ?? '?';
  return callTools({
    name: 'respond',
    args: {
      response: `With 15 seats on the Team plan (39 EUR per seat per month) and the 15% annual-billing discount, the support team would pay ${cost} EUR per year.`,
    },
  });
}

/** The demo's offline model, with a little latency so the tree grows visibly. */
export function scriptedBrain(): ScriptedModel {
  return new ScriptedModel({
    id: 'scripted-demo',
    latencyMs: 120,
    chunkSize: 6,
    respond: (request) => {
      const choice = request.toolChoice;
      if (typeof choice === 'object' && choice.name === 'plan') return callTools({ name: 'plan', args: { steps: PLAN } });
      if (request.tools?.some((t) => t.name === 'respond')) return replanner(request);
      return executor(request);
    },
  });
}
