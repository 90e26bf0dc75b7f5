import { randomBytes } from 'node:crypto';
import type { AgentEvent } from '../../events/agent-event.js';
import type { SessionKey } from '../session.js';
import { splitStateDelta } from '../state-scope.js';
import type { LockOptions } from './file-lock.js';
import { addPendingWrites, settlePendingWrites, type CommitCheck, type PendingWrite } from './scope-state-file.js';
import type { LoadedLog } from './session-log-format.js';
import type { AcceptedBatch, WriteHooks } from './write-hooks.js';

/** Where one scope's state file is, and how to name it in messages. */
export interface ScopeFileRef {
  readonly path: string;
  readonly file: string;
}

/** A fresh id for a session's creation, the provenance of its initial `app:`/`user:` state (seq 0). */
export const newCreateId = (): string => `create-${Date.now().toString(36)}-${randomBytes(6).toString('hex')}`;

/** The `app:` and `user:` writes of some events as pending writes (the last one per key wins). */
export function pendingWritesOf(
  key: SessionKey,
  items: readonly { delta: Readonly<Record<string, unknown>> | undefined; seq: number; eventId: string }[],
): { app: Record<string, PendingWrite>; user: Record<string, PendingWrite> } {
  const out = { app: {} as Record<string, PendingWrite>, user: {} as Record<string, PendingWrite> };
  for (const item of items) {
    const split = splitStateDelta(item.delta);
    for (const scope of ['app', 'user'] as const)
      for (const [k, value] of Object.entries(split[scope])) out[scope][k] = { value, session: key, seq: item.seq, eventId: item.eventId };
  }
  return out;
}

/** The pending writes of a group of batches about to be written. */
function writesOfBatches(key: SessionKey, batches: readonly AcceptedBatch[]) {
  return pendingWritesOf(
    key,
    batches.flatMap((b) =>
      b.events.map((e: AgentEvent, i) => ({ delta: e.actions?.stateDelta, seq: b.fromVersion + i + 1, eventId: e.id })),
    ),
  );
}

/**
 * The `app:`/`user:` protocol around an append: before the events are written, their shared
 * writes go into the scope files as pending (invisible until their event is committed); after,
 * they are settled — made the value when committed, dropped when not. A crash between leaves
 * pending writes that readers resolve against the session log, so shared state never shows a
 * value whose event is not in its session, and never loses one that is.
 */
export function sharedStateHooks(
  key: SessionKey,
  app: ScopeFileRef,
  user: ScopeFileRef,
  lock: LockOptions,
  committed: CommitCheck,
): WriteHooks {
  let touched: { app: boolean; user: boolean } = { app: false, user: false };
  return {
    async before(batches) {
      const writes = writesOfBatches(key, batches);
      touched = { app: Object.keys(writes.app).length > 0, user: Object.keys(writes.user).length > 0 };
      if (touched.app) await addPendingWrites(app.path, app.file, writes.app, lock);
      if (touched.user) await addPendingWrites(user.path, user.file, writes.user, lock);
    },
    async after(batches, outcome) {
      if (!touched.app && !touched.user) return;
      // This writer knows its own outcome; other writers' pending writes are checked in their logs.
      const known = new Map<string, boolean>();
      batches.forEach((b, i) => {
        for (const e of b.events) known.set(e.id, outcome[i] === true);
      });
      const check: CommitCheck = async (w) =>
        w.session.appName === key.appName && w.session.userId === key.userId && w.session.id === key.id && known.has(w.eventId)
          ? known.get(w.eventId)
          : committed(w);
      if (touched.app) await settlePendingWrites(app.path, app.file, key.id, lock, check);
      if (touched.user) await settlePendingWrites(user.path, user.file, key.id, lock, check);
    },
  };
}

/**
 * Whether the event behind a pending write is committed in its session's log (`undefined`: not
 * visible — not created yet, deleted, or unreadable). Each log is read at most once per check.
 */
export function logCommitCheck(
  pathOf: (session: SessionKey) => string,
  load: (path: string, session: SessionKey) => Promise<LoadedLog | undefined>,
): CommitCheck {
  const logs = new Map<string, Promise<LoadedLog | undefined>>();
  return async (w: PendingWrite): Promise<boolean | undefined> => {
    const path = pathOf(w.session);
    if (!logs.has(path))
      logs.set(
        path,
        load(path, w.session).catch(() => undefined),
      );
    const log = await logs.get(path);
    if (!log) return undefined; // not created yet, deleted, or unreadable: not visible
    if (w.seq === 0) return log.header.createId === w.eventId;
    if (log.version < w.seq) return undefined;
    return log.events[w.seq - 1]?.id === w.eventId;
  };
}

/**
 * Settles the pending writes of a session's creation (`writes`, from `pendingWritesOf`): its own
 * are `committed` (the file was created or not); any other session's are checked in their logs.
 * Best effort: a failure leaves them pending, for readers to resolve.
 */
export async function settleCreation(
  key: SessionKey,
  writes: ReturnType<typeof pendingWritesOf>,
  committed: boolean,
  scope: { readonly app: ScopeFileRef; readonly user: ScopeFileRef; readonly lock: LockOptions; readonly check: CommitCheck },
): Promise<void> {
  const { app, user, lock } = scope;
  const ids = new Set([...Object.values(writes.app), ...Object.values(writes.user)].map((w) => w.eventId));
  const check = async (w: PendingWrite) =>
    w.session.id === key.id && w.session.userId === key.userId && ids.has(w.eventId) ? committed : scope.check(w);
  if (Object.keys(writes.app).length) await settlePendingWrites(app.path, app.file, key.id, lock, check).catch(() => undefined);
  if (Object.keys(writes.user).length) await settlePendingWrites(user.path, user.file, key.id, lock, check).catch(() => undefined);
}
