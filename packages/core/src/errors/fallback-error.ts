import { ReplanError } from './replan-error.js';

/** One model's failed attempt at a request that `fallbackModel` handed on. */
export interface FallbackAttempt {
  /** The model's `ChatModel.id`. */
  readonly model: string;
  readonly error: unknown;
}

/**
 * Every model of a `fallbackModel` that was tried failed with an error another model may fix (rate
 * limit, overload, 5xx, timeout, connection, context length). `attempts` lists each model's error
 * in the order tried; `cause` is the last one, so `modelErrorOf` still finds its `ModelError`.
 */
export class FallbackExhaustedError extends ReplanError {
  readonly attempts: readonly FallbackAttempt[];

  constructor(attempts: readonly FallbackAttempt[]) {
    const last = attempts.at(-1);
    const tried = attempts.map((a) => `"${a.model}" (${a.error instanceof Error ? a.error.message : String(a.error)})`).join('; ');
    super(
      `every model that could answer failed: ${tried}. Wait and retry, add another model to the fallback list, or check the providers' status.`,
      last ? { cause: last.error } : undefined,
    );
    this.attempts = attempts;
  }
}
