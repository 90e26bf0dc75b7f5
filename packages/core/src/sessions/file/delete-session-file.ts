import { unlink } from 'node:fs/promises';
import { dirname } from 'node:path';
import { SessionStoreError } from '../../errors/session-errors.js';
import type { SessionKey } from '../session.js';
import { errorCode, syncDir } from './durable-fs.js';
import { acquireLock, LockTimeout, lockHeldMessage, type LockOptions } from './file-lock.js';
import { assertFileHolds } from './session-file-reads.js';

/**
 * Deletes session `key`'s file at `path` (`file`: its name in messages) and then its blobs
 * (`removeBlobs`), holding the session's lock so no append lands in between. The file's name is
 * flushed away (the directory synced) before the blobs go, so a crash never leaves a session whose
 * blobs are gone. A file whose header names another session is refused (`SessionCorruptError`);
 * a session that does not exist is no error.
 */
export async function deleteSessionFile(
  path: string,
  key: SessionKey,
  file: string,
  lock: LockOptions,
  removeBlobs: () => Promise<void>,
): Promise<void> {
  let held: Awaited<ReturnType<typeof acquireLock>>;
  try {
    held = await acquireLock(`${path}.lock`, lock);
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return; // no directory, so no session
    throw error;
  }
  if (held instanceof LockTimeout) throw new SessionStoreError(`Could not delete session "${key.id}": ${lockHeldMessage(held)}`);
  try {
    await assertFileHolds(path, key, file);
    await unlink(path);
    await syncDir(dirname(path));
    await removeBlobs();
  } catch (error) {
    if (errorCode(error) !== 'ENOENT') throw error;
  } finally {
    await held.release();
  }
}
