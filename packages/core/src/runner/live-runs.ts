import type { SessionKey } from '../sessions/session.js';
import type { SessionStore } from '../sessions/session-store.js';
import type { RunResult } from '../events/run-result.js';
import type { RunControl } from './run.js';

/** A run going on in this process: how to abort it, and how it ends. */
export interface LiveRun {
  readonly control: RunControl;
  readonly result: Promise<RunResult>;
}

/** The runs of this process by session, per store (what `runner.cancel` aborts). */
const live = new WeakMap<SessionStore, Map<string, LiveRun>>();

const idOf = (key: SessionKey) => `${key.appName}\u0000${key.userId}\u0000${key.id}`;

/** Registers the run that holds the session's claim; returns the function that removes it. */
export function trackRun(store: SessionStore, key: SessionKey, run: LiveRun): () => void {
  let runs = live.get(store);
  if (!runs) {
    runs = new Map();
    live.set(store, runs);
  }
  const id = idOf(key);
  runs.set(id, run);
  const map = runs;
  return () => {
    if (map.get(id) === run) map.delete(id);
  };
}

/** The run of this session going on in this process, if any. */
export const liveRun = (store: SessionStore, key: SessionKey): LiveRun | undefined => live.get(store)?.get(idOf(key));
