import type { AgentEvent } from '@replan/core';
import { stateScopeOf, type EventActions } from '@replan/core/store-kit';

/** An event's state changes, as the stores apply them: `stateDelta`, then `stateAppend` onto lists. */
function applyActions(state: Record<string, unknown>, actions: EventActions | undefined): void {
  if (actions?.stateDelta) Object.assign(state, actions.stateDelta);
  for (const [key, items] of Object.entries(actions?.stateAppend ?? {})) {
    const current = state[key];
    state[key] = [...(Array.isArray(current) ? current : []), ...items];
  }
}
import type { StateAt } from '../../web/src/wire-types.js';

/**
 * The state right after event `index`, replayed from the events over `initial` (see
 * `initialStateOf`): session keys, and the `app:` and `user:` keys as this session's events left
 * them (other sessions' writes to those shared scopes are not in this log).
 */
export function stateAt(events: readonly AgentEvent[], index: number, initial: Readonly<Record<string, unknown>> = {}): StateAt {
  const all: Record<string, unknown> = { ...initial };
  const end = Math.min(index, events.length - 1);
  for (let i = 0; i <= end; i++) applyActions(all, events[i]?.actions);
  const app: Record<string, unknown> = {};
  const user: Record<string, unknown> = {};
  const session: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(all)) {
    const scope = stateScopeOf(key);
    if (scope === 'app') app[key] = value;
    else if (scope === 'user') user[key] = value;
    else if (scope === 'session') session[key] = value;
  }
  return { index: end, app, user, session };
}

/**
 * The keys of the stored state that none of the session's events wrote: the `state` it was
 * created with (not an event), and for the shared `app:`/`user:` scopes also what other sessions
 * wrote (their current value: the log cannot say when). Keys later overwritten by an event show
 * that event's value from then on.
 */
export function initialStateOf(sessionState: Readonly<Record<string, unknown>>, events: readonly AgentEvent[]): Record<string, unknown> {
  const written = new Set<string>();
  for (const event of events) {
    for (const key in event.actions?.stateDelta ?? {}) written.add(key);
    for (const key in event.actions?.stateAppend ?? {}) written.add(key);
  }
  const initial: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(sessionState)) if (stateScopeOf(key) !== 'temp' && !written.has(key)) initial[key] = value;
  return initial;
}
