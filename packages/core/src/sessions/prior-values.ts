import { TEMP_PREFIX } from './state-scope.js';

/**
 * The values `state` holds for the keys `delta` is about to set (`null` for a key it has no value
 * for: a stored delta cannot delete), so a later `stateDelta` can set them back. `temp:` keys are
 * left out: they live for one invocation anyway.
 */
export function priorValues(
  state: Readonly<Record<string, unknown>>,
  delta: Readonly<Record<string, unknown>> | undefined,
): Record<string, unknown> | undefined {
  if (!delta) return undefined;
  const keys = Object.keys(delta).filter((key) => !key.startsWith(TEMP_PREFIX));
  if (keys.length === 0) return undefined;
  const prior: Record<string, unknown> = Object.create(null);
  for (const key of keys) prior[key] = Object.hasOwn(state, key) ? state[key] : null;
  return prior;
}
