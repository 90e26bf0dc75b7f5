import { type FileHandle, open } from 'node:fs/promises';
import type { SessionKey, SessionSummary } from '../session.js';
import type { ListSessionsInput } from '../session-store.js';
import { errorCode, readFirstLine } from './durable-fs.js';
import { decodeHeader, findLastVersion } from './session-log-format.js';

/** Refuses to act on a file whose header names another session (it is not the one asked for). */
export async function assertFileHolds(path: string, key: SessionKey, file: string): Promise<void> {
  const fh = await open(path, 'r');
  try {
    const line = await readFirstLine(fh);
    let parsed: Partial<SessionKey> | undefined;
    try {
      parsed = JSON.parse(line ?? '') as Partial<SessionKey>;
    } catch {
      return; // an unreadable header: the file at this key's path is this key's, damaged
    }
    if (parsed && (parsed.appName !== key.appName || parsed.userId !== key.userId || parsed.id !== key.id)) decodeHeader(line, key, file); // throws SessionCorruptError naming who it holds
  } finally {
    await fh.close();
  }
}

/** A session's row for `list`, from its header line (`undefined` when deleted meanwhile). */
export async function readSummary(path: string, input: ListSessionsInput, file: string): Promise<SessionSummary | undefined> {
  let fh: FileHandle;
  try {
    fh = await open(path, 'r');
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return undefined; // deleted meanwhile
    throw error;
  }
  try {
    const [line, info] = await Promise.all([readFirstLine(fh), fh.stat()]);
    if (info.size === 0) return undefined; // a creation a power loss cut short: no session
    let id = '';
    try {
      id = String((JSON.parse(line ?? '') as { id?: unknown }).id);
    } catch {
      // decodeHeader below reports the broken header.
    }
    const header = decodeHeader(line, { appName: input.appName, userId: input.userId, id }, file);
    return { ...input, id: header.id, version: 0, createdAt: header.createdAt, updatedAt: Math.floor(info.mtimeMs) };
  } finally {
    await fh.close();
  }
}

/** A session's version for `list`, from the end of its file (`undefined` when deleted meanwhile). */
export async function readVersion(path: string, key: SessionKey, file: string): Promise<number | undefined> {
  let fh: FileHandle;
  try {
    fh = await open(path, 'r');
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return undefined;
    throw error;
  }
  try {
    return await findLastVersion(fh, (await fh.stat()).size, key, file);
  } finally {
    await fh.close();
  }
}
