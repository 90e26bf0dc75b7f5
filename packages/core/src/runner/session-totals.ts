import type { AgentEvent } from '../events/agent-event.js';
import { addUsage, emptyUsage, type Usage } from '../models/usage.js';

/** Model usage of a whole session, every run and every process that worked on it included. */
export interface SessionTotals {
  readonly usage: Usage;
  /** Stored model responses that reported usage. */
  readonly modelCalls: number;
}

/** Sums the usage stored in a session's events: the record every process shares. */
export function sessionTotals(events: readonly AgentEvent[]): SessionTotals {
  let usage = emptyUsage();
  let modelCalls = 0;
  for (const event of events)
    if (event.usage) {
      usage = addUsage(usage, event.usage);
      modelCalls++;
    }
  return { usage, modelCalls };
}
