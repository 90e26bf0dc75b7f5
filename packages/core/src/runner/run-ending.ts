import type { RunStatus } from '../events/agent-event.js';
import { ReplanError } from '../errors/replan-error.js';
import { BudgetExceededError, MaxIterationsError, RunAbortedError } from '../errors/run-errors.js';
import { ConcurrentUpdateError } from '../errors/session-errors.js';
import { RunInterruptedSignal } from '../invocation/run-interrupted.js';

/**
 * How a run that threw ends: its status, what the log gets (`error`: an error event; `end`: an error
 * event that also closes the invocation for good, so `resume` runs nothing), and whether the result
 * carries the error.
 */
export interface RunEnding {
  readonly status: RunStatus;
  readonly record: 'nothing' | 'error' | 'end';
  readonly reportError: boolean;
}

type ErrorClass = abstract new (...args: never[]) => Error;

/**
 * The endings of a run by what its agent threw, in one table (first match wins; anything else fails
 * the run and is stored). An interrupt is how a run waits, not a failure; an abort and a lost race on
 * the session version store nothing: the session stays resumable, and the other writer's log wins.
 */
const ENDINGS: readonly (readonly [ErrorClass, RunEnding])[] = [
  [RunInterruptedSignal, { status: 'interrupted', record: 'nothing', reportError: false }],
  [MaxIterationsError, { status: 'max_iterations', record: 'end', reportError: true }],
  [BudgetExceededError, { status: 'budget_exceeded', record: 'error', reportError: true }],
  [RunAbortedError, { status: 'aborted', record: 'nothing', reportError: true }],
  [ConcurrentUpdateError, { status: 'failed', record: 'nothing', reportError: true }],
];

const FAILED: RunEnding = { status: 'failed', record: 'error', reportError: true };

/** The ending for `error`. An error that is not replan's, thrown once the run's signal fired, is the abort's (`abortError`). */
export function runEndingOf(
  error: Error,
  aborted: boolean,
  abortError: () => Error,
): { readonly error: Error; readonly ending: RunEnding } {
  const decided = aborted && !(error instanceof ReplanError) ? abortError() : error;
  for (const [type, ending] of ENDINGS) if (decided instanceof type) return { error: decided, ending };
  return { error: decided, ending: FAILED };
}
