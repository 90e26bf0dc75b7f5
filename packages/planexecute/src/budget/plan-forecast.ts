import type { BudgetView } from '@replan/core';
import { BUDGET_AMOUNTS, stepEstimateSchema } from './step-estimate.js';

/** Amounts of tokens, cost, model calls and time (the shape of `BudgetView.limits`). */
export type BudgetAmounts = BudgetView['limits'];

/** A plan's cost forecast against the run's budget, as the plan review shows it. */
export interface PlanForecast {
  /** The sum of the steps' estimates, per amount some step estimated. */
  readonly estimate: BudgetAmounts;
  /** What the run had left when the plan was written (minus the reserve with `onExhausted: 'answer'`). */
  readonly available: BudgetAmounts;
  /** True when every estimated amount fits in what is available. */
  readonly fits: boolean;
  /** Steps without an estimate (their use is unknown). */
  readonly unestimated: number;
  readonly steps: number;
}

/** Each step's estimate, in plan order: a step object's `estimate`, else the plan's `estimates[i]`. */
export function stepEstimates(plan: unknown): (BudgetAmounts | undefined)[] {
  const listed = (plan as { steps?: unknown } | undefined)?.steps;
  const steps: readonly unknown[] = Array.isArray(listed) ? listed : [];
  const beside = (plan as { estimates?: unknown } | undefined)?.estimates;
  return steps.map((step, i) => {
    const own = step !== null && typeof step === 'object' ? (step as { estimate?: unknown }).estimate : undefined;
    const parsed = stepEstimateSchema.safeParse(own ?? (Array.isArray(beside) ? beside[i] : undefined));
    return parsed.success && Object.keys(parsed.data).length ? (parsed.data as BudgetAmounts) : undefined;
  });
}

/** The plan's forecast against `budget` (undefined when the run has no limit). */
export function planForecast(plan: unknown, budget: BudgetView | undefined): PlanForecast | undefined {
  if (!budget) return undefined;
  const estimates = stepEstimates(plan);
  const estimate: Record<string, number> = {};
  for (const e of estimates) for (const a of BUDGET_AMOUNTS) if (e?.[a] !== undefined) estimate[a] = (estimate[a] ?? 0) + e[a];
  const available: Record<string, number> = {};
  for (const a of BUDGET_AMOUNTS) {
    const left = budget.left[a];
    if (left !== undefined) available[a] = Math.max(0, left - (budget.reserve?.[a] ?? 0));
  }
  const fits = BUDGET_AMOUNTS.every((a) => estimate[a] === undefined || available[a] === undefined || estimate[a] <= available[a]);
  const unestimated = estimates.filter((e) => e === undefined).length;
  return { estimate, available, fits, unestimated, steps: estimates.length };
}
