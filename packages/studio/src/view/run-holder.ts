import { readChildSessionLink, type LeaseHolder, type Session, type SessionKey, type SessionStore } from '@replan/core';

/** How far up a chain of child sessions (agents run as tools inside agents run as tools) to look. */
const MAX_NESTING = 16;

/**
 * Who runs a session's open invocation now: the live holder of its lease — for a child session
 * (`agentTool`), which takes no lease of its own, the holder of its root parent's — or `null` when
 * nobody holds it. `undefined` when the store cannot tell (no `leaseHolder`).
 */
export async function runHolderOf(
  store: SessionStore,
  session: Session,
  /** How to read a parent session: the studio passes its reader, which keeps loaded sessions (the page asks every second). */
  get: (key: SessionKey) => Promise<Session | undefined> = (key) => store.get(key),
): Promise<LeaseHolder | null | undefined> {
  if (!store.leaseHolder) return undefined;
  let key = { appName: session.appName, userId: session.userId, id: session.id };
  let first = session.events[0];
  for (let depth = 0; depth < MAX_NESTING; depth++) {
    const link = readChildSessionLink(first?.meta);
    if (!link) break;
    key = { ...key, id: link.parentSessionId };
    first = (await get(key))?.events[0];
  }
  return (await store.leaseHolder(key)) ?? null;
}
