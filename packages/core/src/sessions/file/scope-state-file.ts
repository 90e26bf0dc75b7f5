import { readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { z } from 'zod';
import { SessionCorruptError, SessionStoreError } from '../../errors/session-errors.js';
import { SESSION_SCHEMA_VERSION, type SessionKey } from '../session.js';
import { assertSchemaVersion } from '../stored-event.js';
import { ensureDir, errorCode, replaceFile } from './durable-fs.js';
import { acquireLock, LockTimeout, lockHeldMessage, type LockOptions } from './file-lock.js';

/**
 * One `app:`/`user:` write not yet known to be committed: the value, and the session event that
 * carries it (`seq`, `eventId`; seq 0 is the session's creation, `eventId` its header's `createId`).
 * It counts only once that event is in the session's committed log.
 */
export interface PendingWrite {
  readonly value: unknown;
  readonly session: SessionKey;
  readonly seq: number;
  readonly eventId: string;
}

const keySchema = z.object({ appName: z.string(), userId: z.string(), id: z.string() });
const scopeFileSchema = z.object({
  schemaVersion: z.number(),
  /** Settled values: their events are committed (or were written before provenance existed). */
  state: z.record(z.string(), z.unknown()),
  /** Per key, writes whose events may not be committed yet, oldest first. */
  pending: z
    .record(z.string(), z.array(z.object({ value: z.unknown(), session: keySchema, seq: z.number().int(), eventId: z.string() })))
    .optional(),
});
type ScopeFile = z.infer<typeof scopeFileSchema>;

/** Whether a pending write's event is committed: `true`, `false` (it never will be), or `undefined` (maybe in flight). */
export type CommitCheck = (write: PendingWrite) => Promise<boolean | undefined>;

async function readScopeFile(path: string, sessionId: string, file: string): Promise<ScopeFile> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return { schemaVersion: SESSION_SCHEMA_VERSION, state: {} };
    throw error;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (cause) {
    throw new SessionCorruptError(sessionId, `its shared state file ${file} is not valid JSON`, undefined, { cause });
  }
  assertSchemaVersion(sessionId, `the shared state file ${file}`, (parsed as { schemaVersion?: unknown } | null)?.schemaVersion);
  const checked = scopeFileSchema.safeParse(parsed);
  if (!checked.success) throw new SessionCorruptError(sessionId, `its shared state file ${file} has no valid state object`);
  return checked.data;
}

/**
 * The values of a scope state file: settled values, each overridden by its newest pending write
 * whose event is committed. A write whose event never committed (a failed or crashed append) is
 * not seen — the value before it stands.
 */
export async function readScopeState(
  path: string,
  sessionId: string,
  file: string,
  committed: CommitCheck,
): Promise<Record<string, unknown>> {
  const data = await readScopeFile(path, sessionId, file);
  const state = { ...data.state };
  for (const [key, writes] of Object.entries(data.pending ?? {}))
    for (let i = writes.length - 1; i >= 0; i--)
      if ((await committed(writes[i]!)) === true) {
        state[key] = writes[i]!.value;
        break;
      }
  return state;
}

/** Changes a scope state file under its lock (read, change, replace atomically). */
async function updateScopeFile(
  path: string,
  file: string,
  sessionId: string,
  lock: LockOptions,
  change: (data: ScopeFile) => Promise<boolean>,
): Promise<void> {
  await ensureDir(dirname(path));
  const held = await acquireLock(`${path}.lock`, lock);
  if (held instanceof LockTimeout) throw new SessionStoreError(`Timed out updating shared state ${file}: ${lockHeldMessage(held)}`);
  try {
    const data = await readScopeFile(path, sessionId, file);
    if (await change(data)) await replaceFile(path, Buffer.from(JSON.stringify(data)));
  } finally {
    await held.release();
  }
}

/** Records writes as pending (before their events are written): until committed, nobody sees them. */
export async function addPendingWrites(path: string, file: string, writes: Record<string, PendingWrite>, lock: LockOptions): Promise<void> {
  const keys = Object.keys(writes);
  if (!keys.length) return;
  const sessionId = writes[keys[0]!]!.session.id;
  await updateScopeFile(path, file, sessionId, lock, async (data) => {
    const pending: Record<string, PendingWrite[]> = data.pending ?? {};
    for (const key of keys) pending[key] = [...(pending[key] ?? []), writes[key]!];
    data.pending = pending;
    return true;
  });
}

/**
 * Settles pending writes: the newest committed one per key becomes the settled value (older
 * ones go with it), writes known never to commit are dropped, writes maybe still in flight stay.
 * Called after an append (committed or failed) and on the next write; readers never need it.
 */
export async function settlePendingWrites(
  path: string,
  file: string,
  sessionId: string,
  lock: LockOptions,
  committed: CommitCheck,
): Promise<void> {
  await updateScopeFile(path, file, sessionId, lock, async (data) => {
    if (!data.pending) return false;
    let changed = false;
    for (const [key, writes] of Object.entries(data.pending)) {
      const keep: PendingWrite[] = [];
      for (const write of writes) {
        const status = await committed(write);
        if (status === true) {
          data.state[key] = write.value;
          keep.length = 0; // older writes are overridden by this committed one
        } else if (status === undefined) keep.push(write);
      }
      if (keep.length !== writes.length) changed = true;
      if (keep.length) data.pending[key] = keep;
      else delete data.pending[key];
    }
    if (!Object.keys(data.pending).length) delete data.pending;
    return changed;
  });
}
