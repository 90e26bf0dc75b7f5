import { ConfigurationError } from '@replan/core';
import type { MemoryScope } from '../memory-store.js';

/**
 * Which memories an agent-side helper reads and writes: the run's user's (`'user'`, the default)
 * or the whole app's (`'app'`). Never a user id: the user is always the run's, so nothing a model
 * or a request says can reach another user's memories.
 */
export type MemoryScopeOption = 'user' | 'app';

/** Checks a `scope` option when a helper is made: a caller mistake is a `ConfigurationError` at once. */
export function scopeOption(who: string, scope: unknown): MemoryScopeOption {
  if (scope === undefined) return 'user';
  if (scope === 'user' || scope === 'app') return scope;
  throw new ConfigurationError(
    `${who}: scope must be 'user' (the run's user's memories, the default) or 'app' (shared by every user of the app), got ${JSON.stringify(scope)}. The user is always the run's own; it cannot be chosen.`,
  );
}

/** The scope of one run: its app, and its user unless the app's shared memories were chosen. */
export function runScope(run: { readonly appName: string; readonly userId: string }, scope: MemoryScopeOption): MemoryScope {
  return scope === 'app' ? { appName: run.appName } : { appName: run.appName, userId: run.userId };
}
