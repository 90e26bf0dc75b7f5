import type { AgentEvent, GuardrailTrip } from '@replan/core';
import type { SessionStatus } from '../../web/src/wire-types.js';

interface InvocationReading {
  readonly start: number;
  readonly end?: { readonly status: string; readonly output?: string; readonly guardrail?: GuardrailTrip };
  readonly openInterrupts: number;
}

/** The last invocation's events (they are contiguous at the end of the log): where it starts, its end, its open interrupts. */
function lastInvocation(events: readonly AgentEvent[]): InvocationReading | undefined {
  const id = events.at(-1)?.invocationId;
  if (id === undefined) return undefined;
  let start = events.length - 1;
  while (start > 0 && events[start - 1]?.invocationId === id) start--;
  const asked = new Set<string>();
  const answered = new Set<string>();
  let end: InvocationReading['end'];
  for (let i = start; i < events.length; i++) {
    const actions = events[i]?.actions;
    if (actions?.interrupt) asked.add(actions.interrupt.id);
    for (const key in actions?.resumeValues ?? {}) answered.add(key);
    if (actions?.invocationEnd) end = actions.invocationEnd;
  }
  const openInterrupts = [...asked].filter((a) => !answered.has(a)).length;
  return end ? { start, end, openInterrupts } : { start, openInterrupts };
}

export interface StatusReading {
  readonly status: SessionStatus;
  readonly error?: { readonly name: string; readonly message: string };
  readonly output?: string;
  /** The guardrail that blocked the run (status `blocked`): shown instead of an answer. */
  readonly guardrail?: GuardrailTrip;
}

/**
 * Where the session's last invocation stands, from its stored events alone: `invocationEnd`
 * (completed, max_iterations, blocked by a guardrail), a run error (budget_exceeded when the budget stopped it, else
 * failed), open interrupts (interrupted), else still running — or stopped by a crash or an
 * abort, which the log cannot tell from running (resume continues it either way).
 */
export function statusOf(events: readonly AgentEvent[]): StatusReading {
  const log = lastInvocation(events);
  if (!log) return { status: 'empty' };
  if (log.end) {
    const ended = log.end.status;
    const status = ended === 'max_iterations' || ended === 'blocked' ? ended : 'completed';
    const { output, guardrail } = log.end;
    return { status, ...(output !== undefined ? { output } : {}), ...(ended === 'blocked' && guardrail ? { guardrail } : {}) };
  }
  for (let i = events.length - 1; i >= log.start; i--) {
    const event = events[i];
    if (event?.actions?.resumeValues) break; // an error before a resume belongs to the earlier attempt
    if (event?.error && event.meta?.kind === 'run-error') {
      const error = { name: event.error.name, message: event.error.message };
      return { status: event.error.name === 'BudgetExceededError' ? 'budget_exceeded' : 'failed', error };
    }
  }
  if (log.openInterrupts) return { status: 'interrupted' };
  return { status: 'running' };
}
