import { readFile } from 'node:fs/promises';
import { SessionCorruptError, SessionStoreError } from '../../errors/session-errors.js';
import { SESSION_SCHEMA_VERSION } from '../session.js';
import { assertSchemaVersion } from '../stored-event.js';
import { dirname } from 'node:path';
import { ensureDir, errorCode, replaceFile } from './durable-fs.js';
import { acquireLock, LockTimeout, type LockOptions } from './file-lock.js';

/**
 * `app:` or `user:` state kept as one small JSON file, `{ schemaVersion, state }`. It holds the
 * current values (not a history), so it is replaced whole, atomically, under a lock.
 */
export async function readScopeState(path: string, sessionId: string): Promise<Record<string, unknown>> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return {};
    throw error;
  }
  let parsed: { schemaVersion?: unknown; state?: unknown };
  try {
    parsed = JSON.parse(text) as typeof parsed;
  } catch (cause) {
    throw new SessionCorruptError(sessionId, `its shared state file ${path} is not valid JSON`, undefined, { cause });
  }
  assertSchemaVersion(sessionId, `the shared state file ${path}`, parsed?.schemaVersion);
  const state = parsed.state;
  if (typeof state !== 'object' || state === null || Array.isArray(state))
    throw new SessionCorruptError(sessionId, `its shared state file ${path} has no state object`);
  return state as Record<string, unknown>;
}

/** Merges `delta` into the state file at `path` (read, merge, replace) while holding its lock. */
export async function mergeScopeState(
  path: string,
  delta: Record<string, unknown>,
  sessionId: string,
  lock: LockOptions,
): Promise<void> {
  if (!Object.keys(delta).length) return;
  await ensureDir(dirname(path));
  const held = await acquireLock(`${path}.lock`, lock);
  if (held instanceof LockTimeout)
    throw new SessionStoreError(
      `Timed out waiting for the lock ${held.lockPath} (held by ${held.holder}) to update shared state. ` +
        'If no replan process is running, delete that lock file.',
    );
  try {
    const state = { ...(await readScopeState(path, sessionId)), ...delta };
    await replaceFile(path, Buffer.from(JSON.stringify({ schemaVersion: SESSION_SCHEMA_VERSION, state })));
  } finally {
    await held.release();
  }
}
