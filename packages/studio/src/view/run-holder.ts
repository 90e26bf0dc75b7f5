import type { Session, SessionKey, SessionStore } from '@replan/core';
import type { LeaseHolder } from '@replan/core/store-kit';
import { childSessionRoot } from '@replan/core/agent-kit';

/**
 * Who runs a session's open invocation now: the live holder of its lease — for a child session
 * (`agentTool`), of its root session's (the run that holds the root runs the whole tree, its
 * child sessions under leases of their own) — or `null` when nobody holds it. `undefined` when
 * the store cannot tell (no `leaseHolder`).
 */
export async function runHolderOf(
  store: SessionStore,
  session: Session,
  /** How to read a parent session: the studio passes its reader, which keeps loaded sessions (the page asks every second). */
  get: (key: SessionKey) => Promise<Session | undefined> = (key) => store.get(key),
): Promise<LeaseHolder | null | undefined> {
  if (!store.leaseHolder) return undefined;
  const root = await childSessionRoot(session, get);
  return (await store.leaseHolder({ appName: session.appName, userId: session.userId, id: root?.rootSessionId ?? session.id })) ?? null;
}
