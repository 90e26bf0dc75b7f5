import { applyStateActions, stateScopeOf, type AgentEvent } from '@replan/core';
import type { StateAt } from '../../web/src/wire-types.js';

/**
 * The state right after event `index`, replayed from the events: session keys, and the `app:` and
 * `user:` keys as this session's own events wrote them (other sessions' writes to those shared
 * scopes are not in this log). The initial state given at creation is not an event: it shows only
 * under `initial` keys the events never wrote (passed by the caller).
 */
export function stateAt(events: readonly AgentEvent[], index: number, initial: Readonly<Record<string, unknown>> = {}): StateAt {
  const all: Record<string, unknown> = { ...initial };
  const end = Math.min(index, events.length - 1);
  for (let i = 0; i <= end; i++) applyStateActions(all, events[i]?.actions);
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
 * The session-scope keys of the stored state that no event explains: the `state` the session was
 * created with (a session's initial state is not an event). Keys later overwritten by an event
 * show their latest value only.
 */
export function initialStateOf(sessionState: Readonly<Record<string, unknown>>, events: readonly AgentEvent[]): Record<string, unknown> {
  const written = new Set<string>();
  for (const event of events) {
    for (const key in event.actions?.stateDelta ?? {}) written.add(key);
    for (const key in event.actions?.stateAppend ?? {}) written.add(key);
  }
  const initial: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(sessionState))
    if (stateScopeOf(key) === 'session' && !written.has(key)) initial[key] = value;
  return initial;
}
