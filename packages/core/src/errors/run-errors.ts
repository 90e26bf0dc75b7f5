import { ReplanError } from './replan-error.js';

/** An agent used its `maxIterations` model calls without reaching an answer. */
export class MaxIterationsError extends ReplanError {
  constructor(
    readonly agentName: string,
    readonly maxIterations: number,
  ) {
    super(
      `Agent "${agentName}" reached maxIterations (${maxIterations}) without a final answer. ` +
        `Raise maxIterations, give the agent better tools or instructions, or inspect the session's events.`,
    );
  }
}

/** The run was aborted through its AbortSignal. The session is left resumable. */
export class RunAbortedError extends ReplanError {
  constructor(reason?: unknown) {
    super(
      `The run was aborted${reason instanceof Error ? `: ${reason.message}` : reason !== undefined ? `: ${String(reason)}` : ''}. ` +
        'Everything finished so far is stored; call runner.resume() to continue.',
      { cause: reason },
    );
  }
}

export type BudgetKind = 'maxModelCalls' | 'maxTokens' | 'timeoutMs' | 'maxCost';

/**
 * A run limit was reached. The session is left resumable (with a new budget). With
 * `limits.onExhausted: 'answer'`, `reserve` is set when the call was refused for eating into the
 * reserve kept for the answer (the limit itself still had room): the plan–execute agent then stops
 * starting work and answers. `forecast` is set when the limit still had room but the next model
 * call's estimated input (in tokens for `maxTokens`, in money for `maxCost`) did not fit in it: the
 * call was not made.
 */
export class BudgetExceededError extends ReplanError {
  constructor(
    readonly budget: BudgetKind,
    readonly limit: number,
    readonly used: number,
    readonly reserve?: number,
    readonly forecast?: number,
  ) {
    super(
      reserve !== undefined
        ? `Run budget "${budget}": used ${used} of ${limit}, and the rest down to the reserve of ${reserve} is kept for the answer (limits.onExhausted: 'answer'). ` +
            'Raise the limit or lower limits.reserve for more work before the answer.'
        : forecast !== undefined
          ? `Run budget "${budget}": used ${used} of ${limit}, and the next model call's estimated input (${forecast}) does not fit in what is left, so it was not made. ` +
            'The session is stored; resume it with a higher limit to continue.'
          : `Run budget "${budget}" exceeded (limit ${limit}, used ${used}). ` +
            'The session is stored; resume it with a higher limit to continue.',
    );
  }
}

/** A model call failed. `cause` holds the provider's error. */
export class ModelCallError extends ReplanError {
  constructor(
    readonly agentName: string,
    cause: unknown,
  ) {
    super(`Model call of agent "${agentName}" failed: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
  }
}

/** The model returned neither text nor tool calls, even after being asked again. */
export class EmptyModelResponseError extends ReplanError {
  constructor(readonly agentName: string) {
    super(
      `Agent "${agentName}": the model returned an empty answer (no text, no tool calls) twice. ` +
        'Check the model and its settings (maxTokens, stop sequences) or the prompt.',
    );
  }
}

/** The model's structured answer did not match the agent's `outputSchema`, after repair attempts. */
export class OutputValidationError extends ReplanError {
  constructor(
    readonly agentName: string,
    readonly output: string,
    readonly issues: string,
  ) {
    super(`Agent "${agentName}": the answer does not match outputSchema: ${issues}`);
  }
}
