import type { AgentEvent, EventActions } from '../events/agent-event.js';
import { ConfigurationError } from '../errors/replan-error.js';
import { jsonStateAppend, jsonStateDelta } from './json-state.js';
import { APP_PREFIX, TEMP_PREFIX, USER_PREFIX } from './state-scope.js';

const isTemp = (key: string) => key.startsWith(TEMP_PREFIX);

/**
 * Applies an event's state changes to `state`: `stateDelta` first, then `stateAppend`. Keys for
 * which `keep` is false are skipped (stores keep only their scope). Appends copy the list, so
 * arrays shared with earlier views of the state are never mutated.
 */
export function applyStateActions(
  state: Record<string, unknown>,
  actions: EventActions | undefined,
  keep: (key: string) => boolean = () => true,
): void {
  const delta = actions?.stateDelta;
  if (delta) for (const key in delta) if (keep(key)) state[key] = delta[key];
  const append = actions?.stateAppend;
  if (append)
    for (const key in append)
      if (keep(key)) {
        const current = state[key];
        state[key] = Array.isArray(current) ? [...current, ...(append[key] ?? [])] : [...(append[key] ?? [])];
      }
}

/** Throws when an event appends to `app:`/`user:` keys, which are shared and so only replaced. */
export function assertAppendScopes(event: AgentEvent): void {
  const append = event.actions?.stateAppend;
  if (!append) return;
  for (const key in append)
    if (key.startsWith(APP_PREFIX) || key.startsWith(USER_PREFIX))
      throw new ConfigurationError(
        `Event of "${event.author}" appends to "${key}": stateAppend takes session or temp: keys only; set app:/user: keys with stateDelta.`,
      );
}

function withoutTemp<T>(record: Readonly<Record<string, T>> | undefined): Readonly<Record<string, T>> | undefined {
  if (!record) return record;
  let temp = false;
  for (const key in record) if (isTemp(key)) temp = true;
  if (!temp) return record;
  const out: Record<string, T> = {};
  for (const key in record) if (!isTemp(key)) out[key] = record[key] as T;
  return Object.keys(out).length ? out : undefined;
}

/**
 * The event as it is stored: its state values checked (`StateValueError` unless JSON; `-0` stored
 * as `0`, see `jsonStateValue`) and `temp:` keys removed. The same object when nothing changes.
 * Every built-in store calls it (through `eventsForStorage`) before writing anything.
 */
export function eventForStorage(event: AgentEvent): AgentEvent {
  const actions = event.actions;
  if (!actions || (!actions.stateDelta && !actions.stateAppend)) return event;
  const stateDelta = withoutTemp(jsonStateDelta(actions.stateDelta));
  const stateAppend = withoutTemp(jsonStateAppend(actions.stateAppend));
  if (stateDelta === actions.stateDelta && stateAppend === actions.stateAppend) return event;
  const { stateDelta: _d, stateAppend: _a, ...rest } = actions;
  return {
    ...event,
    actions: { ...rest, ...(stateDelta ? { stateDelta } : {}), ...(stateAppend ? { stateAppend } : {}) },
  };
}
