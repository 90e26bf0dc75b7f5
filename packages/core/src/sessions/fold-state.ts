import type { AgentEvent } from '../events/agent-event.js';
import { applyStateActions } from './apply-state.js';
import { stateScopeOf } from './state-scope.js';

const isSessionKey = (key: string) => stateScopeOf(key) === 'session';

/** Applies the session-scoped part of each event's state changes to `state`, in order. */
export function foldSessionState(state: Record<string, unknown>, events: readonly AgentEvent[]): Record<string, unknown> {
  for (const event of events) applyStateActions(state, event.actions, isSessionKey);
  return state;
}
