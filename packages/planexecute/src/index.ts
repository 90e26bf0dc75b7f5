// Session keys and shared types
export { SessionKeys, readExecutionState } from './session-keys.js';
export { executedGraphSteps } from './session-keys.js';
export type { ExecutedStep, ExecutedGraphStep, StepToolError, ExecutionContext, ExecutorInput } from './session-keys.js';

// Plans, tools and prompts
export { defaultPlanSchema, stepsOf, stepText } from './plan-schema.js';
export type { DefaultPlan } from './plan-schema.js';
export { PlanTool, RespondTool, planToolFor, respondToolFor, defaultRespondSchema } from './plan-tools.js';
export {
  PlannerPrompt,
  ExecutorPrompt,
  ReplannerPrompt,
  fillTemplate,
  formatExecutedSteps,
  formatToolList,
  formatPlannerPrompt,
  formatExecutorPrompt,
  formatReplannerPrompt,
} from './prompts.js';
export type { PromptTemplate, PlannerPromptInput } from './prompts.js';

// Graph mode and context policies
export { graphPlanSchema, graphStepSchema, graphStepsOf, STEP_ID_PATTERN } from './graph/graph-plan.js';
export type { GraphPlan, GraphStep, PlanMode } from './graph/graph-plan.js';
export { graphPlanProblems, checkGraphPlan, InvalidPlanGraphError } from './graph/graph-validation.js';
export type { FinishedSteps } from './graph/graph-validation.js';
export { referencesIn, substituteReferences } from './graph/step-references.js';
export type { StepReference } from './graph/step-references.js';
export {
  GraphPlannerPrompt,
  GraphExecutorPrompt,
  GraphReplannerPrompt,
  formatGraphStepPrompt,
  formatGraphReplannerPrompt,
  formatPlanGraph,
  INSERTED_RESULTS_PREAMBLE,
} from './graph/graph-prompts.js';
export type { GraphStepInput, GraphReplannerInput } from './graph/graph-prompts.js';
export { graphReplannerInput } from './graph/graph-replanner-input.js';
export { GraphExecutor, createGraphExecutor } from './graph/graph-executor.js';
export type { GraphExecutorOptions } from './graph/graph-executor.js';
export { scheduleGraph } from './graph/graph-scheduler.js';
export type { ScheduleOptions, ScheduledDelivery, ScheduleFeedItem } from './graph/graph-scheduler.js';
export { StreamingGraphPlanner, createStreamingGraphPlanner } from './graph/streaming-planner.js';
export type { StreamingGraphPlannerOptions } from './graph/streaming-planner.js';
export { StepStreamParser } from './graph/step-stream-parser.js';
export { StepAcceptance } from './graph/step-acceptance.js';
export { streamModelCall } from './stream-model-call.js';
export {
  applyContextPolicy,
  resolveContextPolicy,
  estimateTokens,
  formatContextView,
  formatContextItem,
  DEFAULT_SUMMARY_TOKENS,
  STEP_RESULTS_PREAMBLE,
} from './context-policy.js';
export type { ContextPolicy, ResolvedContextPolicy, ContextItem, ContextView, ContextPolicyInfo } from './context-policy.js';

// Agents
export { Planner, createPlanner } from './planner.js';
export type { PlannerOptions, StructuredOutput } from './planner.js';
export { Executor, createExecutor } from './executor.js';
export type { ExecutorOptions } from './executor.js';
export { Replanner, createReplanner, parseReplannerAnswer } from './replanner.js';
export type { ReplannerOptions, ReplannerDecision } from './replanner.js';
export { createPlanExecuteAgent } from './plan-execute-agent.js';
export type { PlanExecuteAgentOptions, PlanExecuteQuickOptions } from './plan-execute-agent.js';
export { conversationOf } from './user-input.js';

// Events and errors
export { planExecuteEventKind, PLAN_EXECUTE_META } from './event-kind.js';
export type { PlanExecuteEventKind, PlanExecuteTag } from './event-kind.js';
export { PlanningError } from './planning-error.js';
