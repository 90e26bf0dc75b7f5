import { SessionBusyError } from '../errors/session-errors.js';
import type { SessionKey } from '../sessions/session.js';
import type { SessionStore } from '../sessions/session-store.js';

/** Sessions being run in this process, per store: shared by every `Runner` on that store. */
const active = new WeakMap<SessionStore, Set<string>>();

/**
 * Claims a session for one run in this process, or throws `SessionBusyError` at once. Across
 * processes the store's optimistic versions decide; in one process this refuses the second
 * run before it can call a model or a tool. Returns the release function.
 */
export function claimSession(store: SessionStore, key: SessionKey): () => void {
  const id = `${key.appName}\u0000${key.userId}\u0000${key.id}`;
  let running = active.get(store);
  if (!running) {
    running = new Set();
    active.set(store, running);
  }
  if (running.has(id)) throw new SessionBusyError(key.id);
  running.add(id);
  return () => running.delete(id);
}
