import { ReplanError } from '../errors/replan-error.js';
import type { GuardrailStage } from '../events/guardrail-verdict.js';

/** A guardrail threw (or returned something that is not a verdict): the run ends `failed` with this error. */
export class GuardrailError extends ReplanError {
  constructor(
    /** The guardrail's name. */
    readonly guardrail: string,
    readonly stage: GuardrailStage,
    cause: unknown,
  ) {
    super(
      `The ${stage} guardrail "${guardrail}" threw: ${cause instanceof Error ? cause.message : String(cause)}. ` +
        'A guardrail must return { tripwire, reason? }; fix it, or catch its own failures and return a verdict.',
      { cause },
    );
  }
}
