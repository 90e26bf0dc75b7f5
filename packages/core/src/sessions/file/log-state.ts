import type { Stats } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import type { SessionKey } from '../session.js';
import { decodeSessionLog, type LoadedLog } from './session-log-format.js';

/** What is known about a session file's bytes, and the file state they were read at. */
export interface LogState {
  readonly ino: number;
  readonly size: number;
  readonly mtimeMs: number;
  readonly ctimeMs: number;
  readonly version: number;
  /** Byte offset of the committed end. */
  readonly end: number;
  readonly endsWithNewline: boolean;
}

/** Whether `s` is the file `a` was read at, unchanged (same inode, size and times). */
export const sameFile = (a: LogState | undefined, s: Stats): boolean =>
  a !== undefined && a.ino === s.ino && a.size === s.size && a.mtimeMs === s.mtimeMs && a.ctimeMs === s.ctimeMs;

/**
 * Reads the whole open session file (`info` its stat) and decodes it: the log, and the state a
 * writer keeps so its next append need not read the file again. Refuses damage with
 * `SessionCorruptError`. `state.size` is what was read: less than `info.size` when the file shrank meanwhile.
 */
export async function readSessionLog(
  fh: FileHandle,
  info: Stats,
  key: SessionKey,
  file: string,
): Promise<{ log: LoadedLog; state: LogState }> {
  const data = Buffer.alloc(info.size);
  let read = 0;
  while (read < info.size) {
    const { bytesRead } = await fh.read(data, read, info.size - read, read);
    if (bytesRead === 0) break;
    read += bytesRead;
  }
  const log = decodeSessionLog(data.subarray(0, read), key, file);
  const { version, end, endsWithNewline } = log;
  return { log, state: { ino: info.ino, size: read, mtimeMs: info.mtimeMs, ctimeMs: info.ctimeMs, version, end, endsWithNewline } };
}
