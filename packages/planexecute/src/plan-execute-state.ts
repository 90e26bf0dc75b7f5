import type { Message } from '@replan/core';
import type { ExecutedStepOf, PlanExecuteAgentRef } from './event-kind.js';
import { readExecutionState, SessionKeys, type ExecutedStep } from './base/session-keys.js';

/** One plan–execute agent's state, read from a session's state. */
export interface PlanExecuteState<Plan = unknown> {
  /** The conversation its objective comes from. */
  readonly userInput: readonly Message[];
  /** Its latest plan, as written; `undefined` before it planned. */
  readonly plan: Plan | undefined;
  /** The steps finished under its current objective, oldest first. */
  readonly executedSteps: readonly (unknown extends Plan ? ExecutedStep : ExecutedStepOf<Plan>)[];
  /** The step its executor finished last (linear mode: not yet judged by the replanner until it is in `executedSteps`). */
  readonly executedStep: (unknown extends Plan ? ExecutedStep : ExecutedStepOf<Plan>) | undefined;
}

/**
 * Reads a plan–execute agent's keys from session state (e.g. `session.state` or `ctx.state`),
 * typed with its plan type: `planExecuteState(state, agent)`. Without an agent, the keys of the
 * default-named agent (`SessionKeys`). Saves computing `<name>:Plan` by hand.
 */
export function planExecuteState(state: Readonly<Record<string, unknown>>): PlanExecuteState;
export function planExecuteState<Plan>(
  state: Readonly<Record<string, unknown>>,
  agent: Pick<PlanExecuteAgentRef<Plan>, 'keys' | 'planType'>,
): PlanExecuteState<Plan>;
export function planExecuteState(
  state: Readonly<Record<string, unknown>>,
  agent?: Pick<PlanExecuteAgentRef<unknown>, 'keys'>,
): PlanExecuteState {
  const keys = agent?.keys ?? SessionKeys;
  const { userInput, plan, executedSteps } = readExecutionState(state, keys);
  const executedStep = state[keys.ExecutedStep];
  return {
    userInput,
    plan,
    executedSteps,
    executedStep: executedStep && typeof executedStep === 'object' ? (executedStep as ExecutedStep) : undefined,
  };
}
