import { readInvocation, type AgentEvent } from '@replan/core';
import type { SessionStatus } from '../../web/src/wire-types.js';

export interface StatusReading {
  readonly status: SessionStatus;
  readonly error?: { readonly name: string; readonly message: string };
  readonly output?: string;
}

/**
 * Where the session's last invocation stands, from its stored events alone: `invocationEnd`
 * (completed, max_iterations), a run error (budget_exceeded when the budget stopped it, else
 * failed), open interrupts (interrupted), else still running — or stopped by a crash or an
 * abort, which the log cannot tell from running (resume continues it either way).
 */
export function statusOf(events: readonly AgentEvent[]): StatusReading {
  const log = readInvocation(events);
  if (!log) return { status: 'empty' };
  if (log.end) {
    const status = log.end.status === 'max_iterations' ? 'max_iterations' : 'completed';
    return { status, ...(log.end.output !== undefined ? { output: log.end.output } : {}) };
  }
  for (let i = events.length - 1; i >= log.start; i--) {
    const event = events[i];
    if (event?.actions?.resumeValues) break; // an error before a resume belongs to the earlier attempt
    if (event?.error && event.meta?.kind === 'run-error') {
      const error = { name: event.error.name, message: event.error.message };
      return { status: event.error.name === 'BudgetExceededError' ? 'budget_exceeded' : 'failed', error };
    }
  }
  if (log.openInterrupts.length) return { status: 'interrupted' };
  return { status: 'running' };
}
