import { ConfigurationError, type Agent } from '@replan/core';
import { Executor } from '../base/executor.js';
import type { PlanExecuteKeys } from '../base/session-keys.js';
import type { PlanMode } from './plan-mode.js';
import type { PlanReviewOptions } from '../review/plan-review-answer.js';
import { planReviewKeys } from '../review/review-keys.js';
import { stepToolsProblem } from '../grants/grant-problems.js';
import { planGrants } from '../grants/plan-grants-middleware.js';
import { grantPlanSchema } from '../grants/step-tools.js';

/** What the planner is told when grants are on (after its mode's own text). */
const GRANT_HINT = `

A person approves this plan before it runs. A step may list in "tools" the tools it will call, and in "args" the arguments it will pass to them: approving the plan approves those calls in that step, so it runs without asking again. Name only tools the step needs, and state the arguments you know.`;

/**
 * The agent's mode with plan grants (`review: { plan: true, grants: true }`): its default plan
 * schema gains `tools`/`args` per step, the planner is told about them, a plan naming a tool the
 * executor does not have is a problem (a repair for the model, a refused edit for a reviewer), and
 * the executor gets the `planGrants` middleware. Without grants, the mode as it is.
 */
export function withPlanGrants(
  mode: PlanMode,
  review: Required<PlanReviewOptions> | undefined,
  executor: Agent,
  keys: PlanExecuteKeys,
): PlanMode {
  if (!review?.grants) return mode;
  if (!review.plan)
    throw new ConfigurationError(
      'createPlanExecuteAgent: review.grants needs review.plan: a grant comes from approving a plan. Set review: { plan: true, grants: true }.',
    );
  if (!(executor instanceof Executor))
    throw new ConfigurationError(
      `createPlanExecuteAgent: review.grants needs an executor built here or with createExecutor, but "${executor.name}" is a custom agent: a plan may only name the executor's tools. Use createExecutor, or drop review.grants.`,
    );
  const stepOf = mode.stepOf;
  if (!stepOf)
    throw new ConfigurationError(
      `createPlanExecuteAgent: review.grants needs a mode that says which step a tool call belongs to (PlanMode.stepOf); mode '${mode.name}' has none.`,
    );
  const tools = [
    ...(executor.options.tools ?? []).map((t) => t.name),
    ...(executor.options.middleware ?? []).flatMap((m) => (m.tools ?? []).map((t) => t.name)),
  ];
  const { planner } = mode.prompts;
  const approvedPlanKey = planReviewKeys(keys).ApprovedPlan;
  // Delegates to the mode for everything else (a mode of one's own may be a class).
  return Object.assign(Object.create(mode) as PlanMode, {
    planSchema: grantPlanSchema(mode.planSchema),
    prompts: { ...mode.prompts, planner: { ...planner, system: planner.system + GRANT_HINT } },
    validate: (plan: unknown, finished?: Parameters<PlanMode['validate']>[1]) =>
      mode.validate(plan, finished) ?? stepToolsProblem(plan, tools),
    executor: (options: Parameters<PlanMode['executor']>[0], executorKeys: PlanExecuteKeys) =>
      mode.executor(
        {
          ...options,
          middleware: [
            planGrants({ approvedPlanKey, stepOf: (ctx) => stepOf.call(mode, ctx, executorKeys) }),
            ...(options.middleware ?? []),
          ],
        },
        executorKeys,
      ),
  });
}
