import { SessionNotFoundError } from '../errors/session-errors.js';
import { InMemorySessionStore } from '../sessions/in-memory-session-store.js';
import type { Session, SessionKey } from '../sessions/session.js';
import type { SessionStore } from '../sessions/session-store.js';
import type { RunLease } from '../sessions/run-lease.js';

/** The stores runners made for themselves (no `sessionStore` given): they live in one process only. */
const defaultStores = new WeakSet<SessionStore>();

/** A runner's store when it was given none: a new in-memory one, known as such when a session is not found. */
export function defaultSessionStore(): SessionStore {
  const store = new InMemorySessionStore();
  defaultStores.add(store);
  return store;
}

/**
 * The session a resume continues, read after its lease is taken (a run alive elsewhere refuses the
 * resume before anything is read or written). A missing session is a `SessionNotFoundError`; on a
 * runner's default store it says that store is in memory, the usual cause being a second process
 * that forgot `sessionStore`.
 */
export async function sessionToResume(store: SessionStore, key: SessionKey, lease: RunLease | undefined): Promise<Session> {
  const notFound = () => new SessionNotFoundError(key.appName, key.userId, key.id, { inMemory: defaultStores.has(store) });
  try {
    await lease?.acquire();
  } catch (error) {
    throw error instanceof SessionNotFoundError ? notFound() : error;
  }
  const session = await store.get(key);
  if (!session) throw notFound();
  return session;
}
