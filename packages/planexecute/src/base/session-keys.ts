import type { BudgetView, Message } from '@replan/core';
import type { ContextView } from './context-policy.js';
import type { StepToolError } from './step-tool-error.js';

/**
 * The session state keys the plan-execute agents share (unprefixed: kept with the session, so a
 * resumed run on another machine sees them).
 *
 * | key | written by | when |
 * | --- | --- | --- |
 * | `UserInput` | planner | with its plan: the conversation (user messages, earlier answers), roles kept |
 * | `Plan` | planner, replanner | with each plan; always the latest plan as written |
 * | `ExecutedStep` | executor | with its step's result event |
 * | `ExecutedSteps` | planner (reset to `[]`), replanner | with each new plan or the final answer |
 * | `ExecutedSteps` (graph mode) | planner (reset), graph executor | with each step's result event, as it finishes |
 */
export const SessionKeys = {
  UserInput: 'UserInput',
  Plan: 'Plan',
  ExecutedStep: 'ExecutedStep',
  ExecutedSteps: 'ExecutedSteps',
} as const;

/** The state keys of one plan–execute agent: `SessionKeys` for the default-named one, else `<name>:<key>`. */
export interface PlanExecuteKeys {
  readonly UserInput: string;
  readonly Plan: string;
  readonly ExecutedStep: string;
  readonly ExecutedSteps: string;
}

/** The name `createPlanExecuteAgent` gives when none is passed; its agent keeps the unprefixed `SessionKeys`. */
export const DEFAULT_PLAN_EXECUTE_NAME = 'plan_execute';

/**
 * The state keys of the plan–execute agent named `name`: `SessionKeys` (Eino's names) for the
 * default `plan_execute`, else each key prefixed with the name (`research:Plan`), so several
 * plan–execute agents can share one session. A plan–execute agent's `keys` holds the same.
 */
export function planExecuteKeys(name: string = DEFAULT_PLAN_EXECUTE_NAME): PlanExecuteKeys {
  if (name === DEFAULT_PLAN_EXECUTE_NAME) return SessionKeys;
  return {
    UserInput: `${name}:${SessionKeys.UserInput}`,
    Plan: `${name}:${SessionKeys.Plan}`,
    ExecutedStep: `${name}:${SessionKeys.ExecutedStep}`,
    ExecutedSteps: `${name}:${SessionKeys.ExecutedSteps}`,
  };
}

/** One step the executor finished, as stored under `ExecutedStep` and appended to `ExecutedSteps`. */
export interface ExecutedStep<Step = unknown> {
  /** The step as the plan wrote it (a string for the default plan schema). */
  readonly step: Step;
  /** The executor's final answer for the step. */
  readonly result: string;
  /** The executor's structured answer, when it has an `outputSchema`. */
  readonly structured?: unknown;
  /** Tools that failed during the step (their error results), so the replanner can revise. */
  readonly toolErrors?: readonly StepToolError[];
  /** Why the step did not finish (e.g. the executor used its `maxIterations`); the replanner sees it. */
  readonly error?: string;
}

/**
 * One graph step run (`mode: 'graph'`), appended to `ExecutedSteps` by the graph executor in the
 * step's own last event, as the step finishes: `{ id, step, result }`, or `{ id, step, error }`.
 */
export interface ExecutedGraphStep {
  readonly id: string;
  /** The step's task as the plan wrote it (before `$id` substitution). */
  readonly step: string;
  /** The ids it depended on (so the replanner can tell which results nothing consumed). */
  readonly dependsOn: readonly string[];
  readonly result?: string;
  readonly structured?: unknown;
  readonly toolErrors?: readonly StepToolError[];
  /** Why the step's executor run ended in error (then there is no `result`). */
  readonly error?: string;
}

/** What the planner, executor and replanner build their model input from. */
export interface ExecutionContext<P = unknown> {
  /** The conversation the objective comes from: user messages (and earlier answers), roles kept. */
  readonly userInput: readonly Message[];
  readonly plan: P;
  /** Steps finished so far under this objective, oldest first. */
  readonly executedSteps: readonly ExecutedStep[];
  /** What the `contextPolicy` lets the prompt show of `executedSteps` (set by the agents). */
  readonly context?: ContextView;
  /** Replanner: the run's budget and what is left of it, when the run has limits (the default prompt shows it). */
  readonly budget?: BudgetView;
}

/** The executor's input: the execution context plus the step to run now. */
export interface ExecutorInput<P = unknown> extends ExecutionContext<P> {
  readonly step: unknown;
}

/** Reads one agent's keys from session state (absent keys read as empty). */
export function readExecutionState(state: Readonly<Record<string, unknown>>, keys: PlanExecuteKeys = SessionKeys): ExecutionContext {
  const userInput = state[keys.UserInput];
  const executedSteps = state[keys.ExecutedSteps];
  return {
    userInput: Array.isArray(userInput) ? (userInput as Message[]) : [],
    plan: state[keys.Plan],
    executedSteps: Array.isArray(executedSteps) ? (executedSteps as ExecutedStep[]) : [],
  };
}

/** The graph steps run under this objective (`ExecutedSteps` items with an `id`), oldest first. */
export function executedGraphSteps(state: Readonly<Record<string, unknown>>, keys: PlanExecuteKeys = SessionKeys): ExecutedGraphStep[] {
  const steps = readExecutionState(state, keys).executedSteps as readonly unknown[];
  return steps.filter((s): s is ExecutedGraphStep => typeof (s as { id?: unknown } | null)?.id === 'string');
}
