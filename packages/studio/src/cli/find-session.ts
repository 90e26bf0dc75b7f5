import type { Session, SessionStore } from '@replan/core';
import { discoverOwners } from '../owners.js';

/** Where to look for a session id: the owner given, else every app and user the store lets us discover. */
export async function ownerCandidates(
  store: SessionStore,
  app: string | undefined,
  user: string | undefined,
): Promise<{ appName: string; userId: string }[]> {
  if (app && user) return [{ appName: app, userId: user }];
  const candidates: { appName: string; userId: string }[] = [];
  const owners = await discoverOwners(store, { ...(app ? { apps: [app] } : {}), ...(user ? { users: [user] } : {}) }, []);
  for (const appName of owners.apps)
    if (!app || appName === app)
      for (const userId of owners.users[appName] ?? []) if (!user || userId === user) candidates.push({ appName, userId });
  return candidates;
}

/** The session with this id among the candidates' sessions, if any. */
export async function findSession(
  store: SessionStore,
  id: string,
  candidates: readonly { appName: string; userId: string }[],
): Promise<Session | undefined> {
  for (const owner of candidates) {
    const session = await store.get({ ...owner, id });
    if (session) return session;
  }
  return undefined;
}
