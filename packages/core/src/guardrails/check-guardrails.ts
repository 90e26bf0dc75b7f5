import { abortErrorOf, raceAbort } from '../errors/abort.js';
import type { InvocationContext } from '../invocation/invocation-context.js';
import { GuardrailError } from './guardrail-error.js';
import { type Guardrail, guardrailName } from '../invocation/guardrail.js';
import type { GuardrailStage, GuardrailTrip } from '../events/guardrail-verdict.js';

/**
 * Runs guardrails in order on `value`; the first tripwire is returned (the rest are not asked: a
 * guardrail may call a model, and one block is enough). A throw becomes a `GuardrailError`.
 */
export async function checkGuardrails(
  guardrails: readonly Guardrail[] | undefined,
  stage: GuardrailStage,
  value: string,
  invocation: InvocationContext,
): Promise<GuardrailTrip | undefined> {
  for (const [index, guardrail] of (guardrails ?? []).entries()) {
    const name = guardrailName(guardrail, index);
    const check = typeof guardrail === 'function' ? guardrail : guardrail.check;
    let verdict: unknown;
    try {
      // A guardrail that ignores the run's signal cannot hold the run: the abort ends the wait.
      verdict = await raceAbort(
        Promise.resolve().then(() => check(value, { stage, invocation })),
        invocation.signal,
      );
    } catch (error) {
      if (invocation.signal.aborted) throw abortErrorOf(invocation.signal);
      throw new GuardrailError(name, stage, error);
    }
    if (typeof verdict !== 'object' || verdict === null || typeof (verdict as { tripwire?: unknown }).tripwire !== 'boolean')
      throw new GuardrailError(name, stage, new TypeError(`it returned ${JSON.stringify(verdict)}, not { tripwire: boolean }`));
    const { tripwire, reason } = verdict as { tripwire: boolean; reason?: unknown };
    if (tripwire) return { name, stage, ...(typeof reason === 'string' ? { reason } : {}) };
  }
  return undefined;
}
