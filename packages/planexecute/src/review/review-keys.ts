import type { PlanExecuteKeys } from '../base/session-keys.js';

/** The state keys plan review adds to a plan–execute agent's: `ApprovedPlan`, `PlanFeedback` (prefixed like `Plan`). */
export interface PlanReviewKeys {
  /** The last plan a reviewer approved (or edited), kept in state. */
  readonly ApprovedPlan: string;
  /** `{ plan, feedback }` of the last rejection while the planner plans again; `null` once a plan is approved. */
  readonly PlanFeedback: string;
}

/** The review keys next to `keys`: `ApprovedPlan` for the default agent, `research:ApprovedPlan` for one named `research`. */
export function planReviewKeys(keys: PlanExecuteKeys): PlanReviewKeys {
  const prefix = keys.Plan.slice(0, keys.Plan.length - 'Plan'.length);
  return { ApprovedPlan: `${prefix}ApprovedPlan`, PlanFeedback: `${prefix}PlanFeedback` };
}
