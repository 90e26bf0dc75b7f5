import type { BudgetView } from '@replan/core';
import { BUDGET_AMOUNTS } from './step-estimate.js';

const fmt = (a: string, n: number) =>
  a === 'cost' ? `$${n.toFixed(4)}` : a === 'timeMs' ? `${Math.round(n / 1000)} s` : String(Math.round(n));
const NAMES = { tokens: 'tokens', cost: 'cost', modelCalls: 'model calls', timeMs: 'time' } as const;

/**
 * The run's budget as the default planner and replanner prompts show it. Time is shown as its limit
 * only: what is used of it changes from one call to the next, and a prompt that changes with the
 * clock defeats prompt caching and replay (custom `buildInput`s get `budget.used.timeMs` / `left.timeMs`).
 */
export function formatBudget(budget: BudgetView): string {
  const lines: string[] = [];
  for (const a of BUDGET_AMOUNTS) {
    const limit = budget.limits[a];
    if (limit === undefined) continue;
    if (a === 'timeMs') {
      lines.push(`- ${NAMES[a]}: limit ${fmt(a, limit)} for the whole run`);
      continue;
    }
    const reserve = budget.reserve?.[a];
    const kept = reserve ? `, of which ${fmt(a, reserve)} is kept for the final answer` : '';
    lines.push(`- ${NAMES[a]}: limit ${fmt(a, limit)}, used ${fmt(a, budget.used[a] ?? 0)}, left ${fmt(a, budget.left[a] ?? 0)}${kept}`);
  }
  const end =
    budget.onExhausted === 'answer'
      ? 'When the budget runs low, no new step starts and the final answer is written from the steps done: put the steps that matter most first.'
      : 'When a limit is reached the run stops without an answer: plan only what fits.';
  return `## BUDGET\nThis run has limits:\n${lines.join('\n')}\n${end} A step may carry an estimate of what it will use (tokens, cost, modelCalls, timeMs).`;
}

/** A prompt text with the budget section after it, when the run has limits. */
export const withBudget = (text: string, budget: BudgetView | undefined): string => (budget ? `${text}\n\n${formatBudget(budget)}` : text);
