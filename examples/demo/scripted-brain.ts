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
/** The calculator's answer, as the step reports it. */
const yearlyCost = (results: readonly { readonly output: unknown }[]) => `The yearly cost is ${String(results.at(-1)?.output)} EUR.`;

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
          text: 'The support team will have 15 people after March (12 today + 3 joining).',
        },
        [pricing]: { toolCalls: [search('Team plan price seat month')], text: 'The Team plan costs 39 EUR per seat per month.' },
        [cost]: { toolCalls: [calculate('15 * 39 * 12')], text: yearlyCost },
        [billing]: { toolCalls: [search('annual billing discount')], text: 'Annual billing gives a 15% discount.' },
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
