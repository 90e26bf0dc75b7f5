/**
 * What guardrails decide, as data: the verdict a check returns and the trip a blocked run stores.
 * Below the invocation on purpose, so events and `RunResult` can name it without importing guardrails.
 */

/** Where a guardrail looks: the run's user input (before any model call) or its final output (before it is returned). */
export type GuardrailStage = 'input' | 'output';

/** A guardrail's verdict. `tripwire: true` ends the run with status `blocked`. */
export interface GuardrailVerdict {
  readonly tripwire: boolean;
  /** Why it tripped; stored in the run's log and reported on `RunResult.guardrail`. */
  readonly reason?: string;
}

/** Which guardrail blocked a run and why (`RunResult.guardrail`, and the stored `invocationEnd`). */
export interface GuardrailTrip {
  readonly name: string;
  readonly stage: GuardrailStage;
  readonly reason?: string;
}
