import type { PlanMode } from '../graph/graph-plan.js';

/**
 * What makes a step "the same step" when the replanner issues it again: a graph step's task (ids
 * that ran are never reused, so a retry always has a new id), a linear step's whole content. The
 * stall count compares plans by it, and review matches a failed graph step to its retry by it, so
 * both agree on what a retry is.
 */
export function retryKeyOf(step: unknown, mode: PlanMode): string {
  const key = mode === 'graph' ? (step as { task?: unknown } | null)?.task : step;
  return JSON.stringify(key) ?? String(key);
}
