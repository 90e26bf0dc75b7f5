/**
 * `@replan/planexecute` — plan–execute–replan agents. One way to build: `createPlanExecuteAgent`
 * with a model (or one per role), any role replaceable by an agent from `createPlanner`,
 * `createExecutor` or `createReplanner`; `mode` (`'linear'`, `'graph'` or a `PlanMode`),
 * `checkPlan` and `stepConcurrency` are set on the agent only.
 * @module
 */

// Building the agent
export { createPlanExecuteAgent } from './plan-execute-agent.js';
export type { PlanExecuteAgentOptions } from './plan-execute-agent.js';
export type { PlanExecuteAgent } from './plan-execute-root.js';
export { createPlanner } from './planner.js';
export type { Planner, PlannerOptions } from './planner.js';
export { createExecutor } from './base/executor.js';
export type { Executor } from './base/executor.js';
export type { ExecutorOptions } from './base/executor-options.js';
// Plan modes: linear and graph are the two built in; `mode` also takes a PlanMode of your own.
export { linearMode } from './modes/linear-mode.js';
export { graphMode } from './modes/graph-mode.js';
export type { PlanMode } from './modes/plan-mode.js';
export type { PlanModeOption } from './modes/mode-of.js';
export { createReplanner } from './replanner.js';
export type { Replanner, ReplannerOptions } from './replanner.js';

// Plans and session state
export { SessionKeys, planExecuteKeys } from './base/session-keys.js';
export { planExecuteState } from './plan-execute-state.js';
export type { ExecutedStep, ExecutedGraphStep, ExecutionContext, ExecutorInput } from './base/session-keys.js';
export { defaultPlanSchema, stepsOf, stepText } from './base/plan-schema.js';
// The `plan` and `respond` tool specs, for a planner or replanner call you make yourself.
export { PlanTool, RespondTool } from './plan-tools.js';
export type { DefaultPlan } from './base/plan-schema.js';
export { graphPlanSchema } from './graph/graph-plan.js';
export type { GraphPlan, GraphStep } from './graph/graph-plan.js';
export type { ContextPolicy, ContextPolicyInfo } from './base/context-policy.js';
// For a `buildInput` of your own: earlier results quoted as data, like the default prompts do.
export { formatContextView } from './base/context-policy.js';

// Prompts: the templates the default input builders fill (replace them with `instruction`/`buildInput`)
export { fillTemplate } from './base/prompts.js';
export type { GraphStepInput } from './graph/graph-prompts.js';

// Events and errors
export { planExecuteEventKind } from './event-kind.js';
export { PLAN_EXECUTE_META } from './base/event-tags.js';
export type { PlanExecuteTag } from './base/event-tags.js';
export type { PlanExecuteEventKind } from './event-kind.js';
export { PlanningError } from './base/planning-error.js';

// Steering the plan: review (an interrupt of reason `plan_review`) and stalls
export { PLAN_REVIEW, planReviewAnswerProblem } from './review/plan-review-answer.js';
export type { PlanReviewOptions, PlanReviewAnswer, PlanReviewPayload } from './review/plan-review-answer.js';
export type { PlanDiff } from './review/plan-diff.js';
export { PlanStalledError } from './review/plan-review-errors.js';
export { planReviewKeys } from './review/review-keys.js';
export type { PlanFeedback } from './review/review-feedback.js';
export { InvalidPlanGraphError } from './graph/graph-validation.js';
// Plan policies: `checkPlan`, run on every plan and revision before it is accepted
export { PlanCheckError } from './policy/plan-check.js';
export type { PlanCheck, PlanCheckContext } from './policy/plan-check.js';
