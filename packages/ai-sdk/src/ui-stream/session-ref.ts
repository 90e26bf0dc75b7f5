import type { SessionKey, SessionStore } from '@replan/core';

/** Which session a stream belongs to, and the store that holds its log. */
export interface StreamSession {
  readonly store: SessionStore;
  readonly appName: string;
  readonly userId: string;
  readonly sessionId: string;
}

/** The same, given by the runner that runs the session (its store and app name). */
export interface RunnerStreamSession {
  readonly runner: { readonly sessionStore: SessionStore; readonly appName: string };
  readonly userId: string;
  readonly sessionId: string;
}

export type StreamSessionRef = StreamSession | RunnerStreamSession;

export function resolveStreamSession(ref: StreamSessionRef): { readonly store: SessionStore; readonly key: SessionKey } {
  if ('runner' in ref)
    return { store: ref.runner.sessionStore, key: { appName: ref.runner.appName, userId: ref.userId, id: ref.sessionId } };
  return { store: ref.store, key: { appName: ref.appName, userId: ref.userId, id: ref.sessionId } };
}

/** The session of a run: the one `ref` names, else the run's own (`run.sessionId`, its runner's store and app). */
export function resolveRunSession(
  run: { readonly sessionStore: SessionStore; readonly appName: string; readonly userId: string; readonly sessionId: string },
  ref: Partial<StreamSession> | Partial<RunnerStreamSession> | undefined,
): { readonly store: SessionStore; readonly key: SessionKey } {
  if (ref && 'sessionId' in ref && ref.sessionId !== undefined) return resolveStreamSession(ref as StreamSessionRef);
  return { store: run.sessionStore, key: { appName: run.appName, userId: run.userId, id: run.sessionId } };
}
