import type { Message } from '@replan/core';

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
 */
export const SessionKeys = {
  UserInput: 'UserInput',
  Plan: 'Plan',
  ExecutedStep: 'ExecutedStep',
  ExecutedSteps: 'ExecutedSteps',
} as const;

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
}

export interface StepToolError {
  readonly tool: string;
  readonly error: string;
}

/** What the planner, executor and replanner build their model input from. */
export interface ExecutionContext<P = unknown> {
  /** The conversation the objective comes from: user messages (and earlier answers), roles kept. */
  readonly userInput: readonly Message[];
  readonly plan: P;
  /** Steps finished so far under this objective, oldest first. */
  readonly executedSteps: readonly ExecutedStep[];
}

/** The executor's input: the execution context plus the step to run now. */
export interface ExecutorInput<P = unknown> extends ExecutionContext<P> {
  readonly step: unknown;
}

/** Reads the shared keys from session state (absent keys read as empty). */
export function readExecutionState(state: Readonly<Record<string, unknown>>): ExecutionContext {
  const userInput = state[SessionKeys.UserInput];
  const executedSteps = state[SessionKeys.ExecutedSteps];
  return {
    userInput: Array.isArray(userInput) ? (userInput as Message[]) : [],
    plan: state[SessionKeys.Plan],
    executedSteps: Array.isArray(executedSteps) ? (executedSteps as ExecutedStep[]) : [],
  };
}
