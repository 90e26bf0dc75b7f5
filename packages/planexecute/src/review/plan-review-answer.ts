import type { PlanForecast } from '../budget/plan-forecast.js';
import type { PlanDiff } from './plan-diff.js';

/**
 * How plans are reviewed (`createPlanExecuteAgent({ review })`). A plan under review stops the run
 * with an interrupt of reason `plan_review` before any of its steps runs.
 */
export interface PlanReviewOptions {
  /** Review the planner's plan before any step runs (default true). */
  readonly plan?: boolean;
  /**
   * Which revisions of the replanner are reviewed (default `'changed'`): `'always'` every one;
   * `'changed'` only one that adds, drops or rewrites steps of the last approved plan still to
   * run (a revision that keeps them as they were goes on without review); `'never'` none (a
   * stalled plan is still reviewed, see `maxStalls`).
   */
  readonly replans?: 'changed' | 'always' | 'never';
  /**
   * Plan grants (default false; needs `plan`): a step may name the tools it will call (`tools`) and
   * their arguments (`args`, per tool); approving the plan approves those `needsApproval` calls
   * made in that step, with the stated values where it states them (each stated field equal as
   * JSON; unstated fields are free). Other calls ask as usual. Each granted call's result event
   * carries `meta.grantedBy`, the id of the review that approved it. A revision that adds or
   * changes a step naming tools is reviewed again (whatever `replans` says); steps it leaves as
   * they were keep their grant. A plan naming a tool the executor does not have is sent back to
   * the model; an edit naming one is refused with a `ResumeError` of kind `invalid_value`.
   */
  readonly grants?: boolean;
}

/**
 * The answer to a `plan_review` interrupt, given with `runner.resume({ values: { [id]: answer } })`:
 * - `{ approve: true }`: the plan runs as written;
 * - `{ edit: plan }`: this plan runs instead (checked against the plan schema, and in graph mode as
 *   a graph, when `resume` is called: an invalid one is refused with a `ResumeError` (`invalid_value`),
 *   nothing is stored and the review stays open);
 * - `{ reject: feedback }`: the planner (or replanner) plans again with the feedback in its input,
 *   and its new plan is reviewed.
 */
export type PlanReviewAnswer<Plan = unknown> = { readonly approve: true } | { readonly edit: Plan } | { readonly reject: string };

/** The payload of a `plan_review` interrupt (`interrupt.payload`). */
export interface PlanReviewPayload<Plan = unknown> {
  readonly kind: 'plan_review';
  /** Who wrote the plan: the planner's first plan, or a revision by the replanner. */
  readonly role: 'planner' | 'replanner';
  /** The agent that wrote it (its name). */
  readonly agent: string;
  /** The plan to review. */
  readonly plan: Plan;
  /**
   * A revision: what it changes in the steps of the last approved plan still to run (steps, or in
   * graph mode steps by id, added, removed or changed).
   */
  readonly diff?: PlanDiff;
  /** Why this plan is reviewed although the options would let it pass (it stalled). */
  readonly reason?: string;
  /** When the run has limits: the steps' estimates summed against what is left (minus the answer's reserve). */
  readonly forecast?: PlanForecast;
}

/** The interrupt reason of a plan review. */
export const PLAN_REVIEW = 'plan_review';

const ANSWER_SHAPE = '{ approve: true }, { edit: plan } or { reject: "feedback" }';

/** What is wrong with a value given as a plan review answer (its shape), or `undefined` when it has one. */
export function planReviewAnswerProblem(value: unknown): string | undefined {
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    return `a plan review answer is ${ANSWER_SHAPE}, got ${describe(value)}`;
  const keys = Object.keys(value);
  const kinds = keys.filter((k) => k === 'approve' || k === 'edit' || k === 'reject');
  if (kinds.length !== 1 || keys.length !== 1)
    return `a plan review answer has exactly one of "approve", "edit" or "reject" (${ANSWER_SHAPE}), got keys ${JSON.stringify(keys)}`;
  const answer = value as { approve?: unknown; edit?: unknown; reject?: unknown };
  if ('approve' in answer && answer.approve !== true) return `"approve" must be true, got ${describe(answer.approve)}`;
  if ('reject' in answer && (typeof answer.reject !== 'string' || !answer.reject.trim()))
    return `"reject" must be the feedback for the planner, a non-empty string, got ${describe(answer.reject)}`;
  return undefined;
}

function describe(value: unknown): string {
  if (value === undefined) return 'undefined';
  const json = JSON.stringify(value);
  return json === undefined ? typeof value : json.length > 60 ? `${json.slice(0, 60)}…` : json;
}
