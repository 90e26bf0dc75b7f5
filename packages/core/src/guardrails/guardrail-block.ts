import type { AgentEvent } from '../events/agent-event.js';
import type { GuardrailTrip } from '../events/guardrail-verdict.js';

/** The guardrail that blocked the run, when `event` is the stored end of a blocked invocation. */
export function guardrailBlockOf(event: AgentEvent): GuardrailTrip | undefined {
  const end = event.actions?.invocationEnd;
  return end?.status === 'blocked' ? end.guardrail : undefined;
}

/**
 * What a reader shows for a blocked run instead of its answer, e.g.
 * `Blocked by the output guardrail "no_phone_numbers": contains a phone number`.
 */
export function guardrailBlockText(trip: GuardrailTrip): string {
  return `Blocked by the ${trip.stage} guardrail "${trip.name}"${trip.reason ? `: ${trip.reason}` : ''}`;
}
