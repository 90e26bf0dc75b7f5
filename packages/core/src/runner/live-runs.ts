import type { SessionKey } from '../sessions/session.js';
import type { SessionStore } from '../sessions/session-store.js';
import type { RunResult } from '../events/run-result.js';
import type { RunControl } from './run.js';

/** A run going on in this process: how to abort it, how it ends, and when it let go of its session (claim and lease). */
export interface LiveRun {
  readonly control: RunControl;
  readonly result: Promise<RunResult>;
  readonly released: Promise<void>;
}

/** The runs of this process by session, per store (what `runner.cancel` aborts). */
const live = new WeakMap<SessionStore, Map<string, LiveRun>>();

const idOf = (key: SessionKey) => `${key.appName}\u0000${key.userId}\u0000${key.id}`;

/** Registers the run that holds the session's claim; `untrack` removes it, `released` says it let go of the session. */
export function trackRun(
  store: SessionStore,
  key: SessionKey,
  started: Omit<LiveRun, 'released'>,
): { readonly untrack: () => void; readonly released: () => void } {
  let released!: () => void;
  const run: LiveRun = { ...started, released: new Promise<void>((resolve) => (released = resolve)) };
  let runs = live.get(store);
  if (!runs) {
    runs = new Map();
    live.set(store, runs);
  }
  const id = idOf(key);
  runs.set(id, run);
  const map = runs;
  const untrack = () => {
    if (map.get(id) === run) map.delete(id);
  };
  return { untrack, released };
}

/** The run of this session going on in this process, if any. */
export const liveRun = (store: SessionStore, key: SessionKey): LiveRun | undefined => live.get(store)?.get(idOf(key));
