import type { ScriptedModel } from '@replan/core/testing';
import { scriptPlanExecute } from '@replan/planexecute/testing';

// The offline "model": `scriptPlanExecute` answers the planner, executor and replanner by who
// calls (never by what the prompt says), the way a capable model would for the demo's question.
// The run is real: the tools run, and the steps and results flow through the session.

const PLAN = [
  'Find how many people the support team will have after the March hires (search the staffing document).',
  'Find the Team plan price per seat per month (search the pricing document).',
  'Compute the yearly cost for that many seats on the Team plan.',
];
const REVISED = [
  'Find the discount for annual billing (search the billing document).',
  'Compute the yearly cost for 15 seats at 39 EUR per month with the annual discount applied.',
];

const search = (query: string) => ({ name: 'search_docs', args: { query } });
const calculate = (expression: string) => ({ name: 'calculator', args: { expression } });
type Results = readonly { readonly output: unknown }[];
/** The calculator's answer, as the step reports it. */
const yearlyCost = (results: Results) => `The yearly cost is ${String(results.at(-1)?.output)} EUR.`;
/**
 * A search step's finding, read from what the search returned (so the step reports what the
 * documents say, or that they did not say it).
 */
const finding =
  (pattern: RegExp, say: (match: RegExpMatchArray) => string) =>
  (results: Results): string => {
    const found = String(results.at(-1)?.output ?? '');
    const match = found.match(pattern);
    return match ? say(match) : `The documents do not say: ${found.split('\n')[0] || 'no match'}`;
  };
const staffingFinding = finding(/has (\d+) people today; (\d+) more/, ([, today, joining]) => {
  const total = Number(today) + Number(joining);
  return `The support team will have ${total} people after March (${today} today + ${joining} joining).`;
});
const priceFinding = finding(
  /Team plan costs (\d+) EUR per seat per month/,
  ([, price]) => `The Team plan costs ${price} EUR per seat per month.`,
);
const discountFinding = finding(
  /annual billing gives a (\d+)% discount/i,
  ([, discount]) => `Annual billing gives a ${discount}% discount.`,
);

/** The demo's offline model (one for every role), with a little latency so the tree grows visibly. */
export function scriptedBrain(): ScriptedModel {
  const [staffing, pricing, cost] = PLAN as [string, string, string];
  const [billing, discounted] = REVISED as [string, string];
  return scriptPlanExecute(
    {
      plan: { steps: PLAN },
      steps: {
        [staffing]: {
          toolCalls: [search('support team people March')],
          text: staffingFinding,
        },
        [pricing]: { toolCalls: [search('Team plan price seat month')], text: priceFinding },
        [cost]: { toolCalls: [calculate('15 * 39 * 12')], text: yearlyCost },
        [billing]: { toolCalls: [search('annual billing discount')], text: discountFinding },
        [discounted]: { toolCalls: [calculate('15 * 39 * 12 * (1 - 0.15)')], text: yearlyCost },
      },
      // A step you wrote in an edit (`pnpm demo --review`): search the documents for it, report the best match.
      otherSteps: {
        toolCalls: [(_, step) => search(step)],
        text: (results, step) => `For "${step}": ${String(results.at(-1)?.output).split('\n')[0]}`,
      },
      // After the price, the replanner notices that annual billing matters and revises the plan.
      replans: [{ steps: PLAN.slice(1) }, { steps: REVISED }, { steps: REVISED.slice(1) }],
      answer: (results) =>
        `With 15 seats on the Team plan (39 EUR per seat per month) and the 15% annual-billing discount, the support team would pay ${
          results[discounted]?.match(/[\d.]+/)?.[0] ?? '?'
        } EUR per year.`,
    },
    { id: 'scripted-demo', latencyMs: 120, chunkSize: 6 },
  ).model;
}
