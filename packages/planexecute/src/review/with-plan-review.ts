import { ConfigurationError, type Agent } from '@replan/core';
import type { PlanExecuteKeys } from '../base/session-keys.js';
import type { PlanReviewOptions } from './plan-review-answer.js';
import type { PlanDecider } from '../base/plan-decider.js';
import { PlanReviewGate } from './plan-review-gate.js';

/** The default of `maxStalls`. */
export const DEFAULT_MAX_STALLS = 3;

const REPLANS = ['changed', 'always', 'never'] as const;

/** The review options with defaults filled in; `undefined` when none were given. Bad options are a `ConfigurationError`. */
export function resolveReview(review: PlanReviewOptions | undefined): Required<PlanReviewOptions> | undefined {
  if (review === undefined) return undefined;
  if (review === null || typeof review !== 'object' || Array.isArray(review))
    throw new ConfigurationError(
      `createPlanExecuteAgent: review must be an object such as { plan: true, replans: 'changed' }, got ${JSON.stringify(review)}.`,
    );
  const unknown = Object.keys(review).filter((k) => k !== 'plan' && k !== 'replans' && k !== 'grants');
  if (unknown.length)
    throw new ConfigurationError(
      `createPlanExecuteAgent: review has unknown option(s) ${unknown.map((k) => `"${k}"`).join(', ')}; it takes "plan" (boolean), "grants" (boolean) and "replans" (${REPLANS.map((r) => `'${r}'`).join(' | ')}).`,
    );
  if (review.plan !== undefined && typeof review.plan !== 'boolean')
    throw new ConfigurationError(`createPlanExecuteAgent: review.plan must be true or false, got ${JSON.stringify(review.plan)}.`);
  if (review.replans !== undefined && !REPLANS.includes(review.replans))
    throw new ConfigurationError(
      `createPlanExecuteAgent: review.replans must be ${REPLANS.map((r) => `'${r}'`).join(', ')}, got ${JSON.stringify(review.replans)}.`,
    );
  if (review.grants !== undefined && typeof review.grants !== 'boolean')
    throw new ConfigurationError(`createPlanExecuteAgent: review.grants must be true or false, got ${JSON.stringify(review.grants)}.`);
  return { plan: review.plan ?? true, replans: review.replans ?? 'changed', grants: review.grants ?? false };
}

/** `maxStalls` checked (a positive integer), default 3. */
export function resolveMaxStalls(maxStalls: number | undefined): number {
  if (maxStalls === undefined) return DEFAULT_MAX_STALLS;
  if (!Number.isInteger(maxStalls) || maxStalls < 1)
    throw new ConfigurationError(`createPlanExecuteAgent: maxStalls must be a positive integer, got ${String(maxStalls)}.`);
  return maxStalls;
}

/**
 * Puts the planner and the replanner behind review gates: the planner when its plan is reviewed,
 * the replanner always (it also counts stalls) when it is one of ours. Review needs our planner and
 * replanner: their plan schema checks edits and they read a rejection's feedback; a custom agent
 * with review is a `ConfigurationError` saying so.
 */
export function withPlanReview(
  parts: { readonly planner: Agent; readonly replanner: Agent },
  options: {
    readonly review: Required<PlanReviewOptions> | undefined;
    readonly maxStalls: number;
    readonly keys: PlanExecuteKeys;
    /** Which parts came from `createPlanner` / `createReplanner` (or the one-call defaults): they write plans the gate can read. */
    readonly ours: { readonly planner: boolean; readonly replanner: boolean };
  },
): { planner: Agent; replanner: Agent } {
  const { review, maxStalls, keys, ours } = options;
  const { planner, replanner } = parts;
  if (review?.plan && !ours.planner)
    throw new ConfigurationError(
      `createPlanExecuteAgent: review.plan needs a planner from createPlanner, but "${planner.name}" is a custom agent: its plan schema checks an edited plan and it reads the feedback of a rejected one. Use createPlanner, or set review.plan to false.`,
    );
  if (review && !ours.replanner)
    throw new ConfigurationError(
      `createPlanExecuteAgent: review needs a replanner from createReplanner, but "${replanner.name}" is a custom agent: its revisions are reviewed (and stalled plans too) with its plan schema, and it reads the feedback of a rejected plan. Use createReplanner, or drop review.`,
    );
  return {
    planner: review?.plan ? new PlanReviewGate({ inner: planner as PlanDecider, keys, review, maxStalls }) : planner,
    // A custom replanner's revisions carry no tags to count stalls by: it runs as it is.
    replanner: ours.replanner ? new PlanReviewGate({ inner: replanner as PlanDecider, keys, review, maxStalls }) : replanner,
  };
}
