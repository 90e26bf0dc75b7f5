import type { CompensationReport } from '../errors/compensation-error.js';
import type { AgentEvent } from '../events/agent-event.js';

/** The compensation report stored on the invocation's closing event, if it was closed by a compensation. */
export function storedCompensation(events: readonly AgentEvent[], invocationId: string): CompensationReport | undefined {
  for (let i = events.length - 1; i >= 0; i--) {
    const event = events[i] as AgentEvent;
    if (event.invocationId !== invocationId) break;
    const report = event.meta?.compensation;
    if (report && event.actions?.invocationEnd) return report as CompensationReport;
  }
  return undefined;
}
