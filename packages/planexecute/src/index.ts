/**
 * `@replan/planexecute` — plan–execute–replan agents. One way to build: `createPlanExecuteAgent`
 * with a model (or one per role), any role replaceable by an agent from `createPlanner`,
 * `createExecutor` or `createReplanner`; `mode` (`'linear'`, `'graph'` or a `PlanMode`),
 * `checkPlan` and `stepConcurrency` are set on the agent only.
 * @module
 */

// Building the agent
export { createPlanExecuteAgent } from './plan-execute-agent.js';
export type { PlanExecuteAgentOptions, PlanOfSchema, PlanOfPlanner } from './plan-execute-agent.js';
export type { PlanExecuteAgent } from './plan-execute-root.js';
export { createPlanner } from './planner.js';
export type { Planner, PlannerOptions, StructuredOutput } from './planner.js';
export { createExecutor } from './executor.js';
export type { Executor } from './executor.js';
export type { ExecutorOptions } from './executor-options.js';
// Plan modes: linear and graph are the two built in; `mode` also takes a PlanMode of your own.
export { linearMode } from './modes/linear-mode.js';
export { graphMode } from './modes/graph-mode.js';
export type { PlanMode, PlanProgress, ReplannerInputOptions, ReplannerTurnInput, ModeExecutorOptions } from './modes/plan-mode.js';
export type { PlanModeOption } from './modes/mode-of.js';
export { createReplanner } from './replanner.js';
export type { Replanner, ReplannerOptions, ReplannerDecision } from './replanner.js';

// Plans and session state
export { SessionKeys, planExecuteKeys } from './session-keys.js';
export type { PlanExecuteKeys } from './session-keys.js';
export { planExecuteState } from './plan-execute-state.js';
export type { PlanExecuteState } from './plan-execute-state.js';
export type { ExecutedStep, ExecutedGraphStep, ExecutionContext, ExecutorInput } from './session-keys.js';
export type { StepToolError } from './step-tool-error.js';
export { defaultPlanSchema, stepsOf, stepText } from './plan-schema.js';
// The `plan` and `respond` tool specs, for a planner or replanner call you make yourself.
export { PlanTool, RespondTool } from './plan-tools.js';
export type { DefaultPlan } from './plan-schema.js';
export { graphPlanSchema } from './graph/graph-plan.js';
export type { GraphPlan, GraphStep } from './graph/graph-plan.js';
export type { ContextPolicy, ContextView, ContextItem, ContextPolicyInfo } from './context-policy.js';
// For a `buildInput` of your own: earlier results quoted as data, like the default prompts do.
export { formatContextView, STEP_RESULTS_PREAMBLE } from './context-policy.js';

// Prompts: the templates the default input builders fill (replace them with `instruction`/`buildInput`)
export { PlannerPrompt, ExecutorPrompt, ReplannerPrompt, fillTemplate } from './prompts.js';
export type { PromptTemplate, PlannerPromptInput } from './prompts.js';
export { GraphPlannerPrompt, GraphExecutorPrompt, GraphReplannerPrompt, INSERTED_RESULTS_PREAMBLE } from './graph/graph-prompts.js';
export type { GraphStepInput, GraphReplannerInput } from './graph/graph-prompts.js';

// Events and errors
export { planExecuteEventKind } from './event-kind.js';
export { PLAN_EXECUTE_META } from './event-tags.js';
export type { PlanExecuteTag } from './event-tags.js';
export type { PlanExecuteEventKind, PlanExecuteAgentRef, StepOf, ExecutedStepOf } from './event-kind.js';
export { PlanningError } from './planning-error.js';

// Steering the plan: review (an interrupt of reason `plan_review`) and stalls
export { PLAN_REVIEW, planReviewAnswerProblem } from './review/plan-review-answer.js';
export type { PlanReviewOptions, PlanReviewAnswer, PlanReviewPayload } from './review/plan-review-answer.js';
export type { PlanDiff, PlanStepChange } from './review/plan-diff.js';
export { InvalidPlanReviewAnswerError, PlanStalledError } from './review/plan-review-errors.js';
export { planReviewKeys } from './review/review-keys.js';
export type { PlanReviewKeys } from './review/review-keys.js';
export type { PlanFeedback } from './review/review-feedback.js';
export { InvalidPlanGraphError } from './graph/graph-validation.js';
// Plan policies: `checkPlan`, run on every plan and revision before it is accepted
export { PlanCheckError } from './policy/plan-check.js';
export type { PlanCheck, PlanCheckContext, PlanCheckResult } from './policy/plan-check.js';
