// Session keys and shared types
export { SessionKeys, readExecutionState } from './session-keys.js';
export type { ExecutedStep, StepToolError, ExecutionContext, ExecutorInput } from './session-keys.js';

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
