/** Keys with this prefix are shared by every session of the app. */
export const APP_PREFIX = 'app:';
/** Keys with this prefix are shared by every session of one user in the app. */
export const USER_PREFIX = 'user:';
/** Keys with this prefix live for one invocation and are never stored. */
export const TEMP_PREFIX = 'temp:';

export type StateScope = 'app' | 'user' | 'temp' | 'session';

export function stateScopeOf(key: string): StateScope {
  if (key.startsWith(APP_PREFIX)) return 'app';
  if (key.startsWith(USER_PREFIX)) return 'user';
  if (key.startsWith(TEMP_PREFIX)) return 'temp';
  return 'session';
}

export interface ScopedDelta {
  app: Record<string, unknown>;
  user: Record<string, unknown>;
  session: Record<string, unknown>;
}

/** Splits a state delta by scope; `temp:` keys are dropped (they are never stored). */
export function splitStateDelta(delta: Readonly<Record<string, unknown>> | undefined): ScopedDelta {
  const out: ScopedDelta = { app: {}, user: {}, session: {} };
  if (!delta) return out;
  for (const key of Object.keys(delta)) {
    const scope = stateScopeOf(key);
    if (scope !== 'temp') out[scope][key] = delta[key];
  }
  return out;
}

/** Removes `temp:` keys from a delta; returns the same object when it has none. */
export function withoutTempKeys(delta: Readonly<Record<string, unknown>> | undefined): Readonly<Record<string, unknown>> | undefined {
  if (!delta) return delta;
  let hasTemp = false;
  for (const key in delta) if (key.startsWith(TEMP_PREFIX)) hasTemp = true;
  if (!hasTemp) return delta;
  const out: Record<string, unknown> = {};
  for (const key in delta) if (!key.startsWith(TEMP_PREFIX)) out[key] = delta[key];
  return Object.keys(out).length ? out : undefined;
}
