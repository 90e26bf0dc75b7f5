import type { GuardrailTrip } from '../events/guardrail-verdict.js';
import type { AgentEvent, FinalAnswer, Interrupt } from '../events/agent-event.js';

/** What the stored events of one invocation say about where it stands. */
export interface InvocationLog {
  readonly invocationId: string;
  /** Index of the invocation's first event in the session. */
  readonly start: number;
  readonly interruptIds: Set<string>;
  readonly resumeValues: Map<string, unknown>;
  readonly openInterrupts: Interrupt[];
  readonly end?: { readonly status: string; readonly output?: string; readonly guardrail?: GuardrailTrip };
  readonly final?: FinalAnswer;
}

/** Reads the session's last invocation (or the given one) from its events. */
export function readInvocation(events: readonly AgentEvent[], invocationId?: string): InvocationLog | undefined {
  const id = invocationId ?? events[events.length - 1]?.invocationId;
  if (!id) return undefined;
  let start = -1;
  for (let i = events.length - 1; i >= 0; i--) {
    if (events[i]?.invocationId === id) start = i;
    else if (start >= 0) break;
  }
  if (start < 0) return undefined;
  const interrupts: Interrupt[] = [];
  const interruptIds = new Set<string>();
  const resumeValues = new Map<string, unknown>();
  let end: InvocationLog['end'];
  let final: FinalAnswer | undefined;
  for (let i = start; i < events.length; i++) {
    const actions = events[i]?.actions;
    if (!actions) continue;
    if (actions.interrupt && !interruptIds.has(actions.interrupt.id)) {
      interruptIds.add(actions.interrupt.id);
      interrupts.push(actions.interrupt);
    }
    if (actions.resumeValues) for (const [k, v] of Object.entries(actions.resumeValues)) resumeValues.set(k, v);
    if (actions.final) final = actions.final;
    if (actions.invocationEnd) end = actions.invocationEnd;
  }
  return {
    invocationId: id,
    start,
    interruptIds,
    resumeValues,
    openInterrupts: interrupts.filter((i) => !resumeValues.has(i.id)),
    ...(end ? { end } : {}),
    ...(final ? { final } : {}),
  };
}
