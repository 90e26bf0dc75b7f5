import type { AgentEvent } from '../events/agent-event.js';
import { splitStateDelta } from './state-scope.js';

/** Applies the session-scoped part of each event's `stateDelta` to `state`, in order. */
export function foldSessionState(
  state: Record<string, unknown>,
  events: readonly AgentEvent[],
): Record<string, unknown> {
  for (const event of events) Object.assign(state, splitStateDelta(event.actions?.stateDelta).session);
  return state;
}
