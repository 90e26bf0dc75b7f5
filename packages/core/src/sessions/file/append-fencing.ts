import type { Stats } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import type { SessionKey } from '../session.js';
import { readSessionLog, type LogState } from './log-state.js';
import type { AcceptedBatch } from './write-hooks.js';

/**
 * Which batches of a group write are committed, checked after the write's `fdatasync` (`info`:
 * the file's stat right after the write; the file still linked). The lock keeps writers apart,
 * but an append never trusts it: bytes go out with O_APPEND in one `write`, so no writer
 * overwrites another's, and the file must have grown by exactly our `written` bytes since
 * `before`. Otherwise another writer appended too (our lock was deleted or broken under us), and
 * the log is decoded again to see whose batch won: each of ours is committed only if the log holds
 * its last event at its version. Returns the log state the writer may keep.
 */
export async function committedBatches(
  fh: FileHandle,
  info: Stats,
  before: LogState,
  written: number,
  batches: readonly AcceptedBatch[],
  key: SessionKey,
  file: string,
): Promise<{ committed: boolean[]; state: LogState }> {
  const last = batches.at(-1)!;
  if (info.size === before.size + written) {
    // Nothing else was appended since we read `before`, so our bytes start at before.size.
    const state: LogState = {
      ino: info.ino,
      size: info.size,
      mtimeMs: info.mtimeMs,
      ctimeMs: info.ctimeMs,
      version: last.fromVersion + last.events.length,
      end: info.size,
      endsWithNewline: true,
    };
    return { committed: batches.map(() => true), state };
  }
  // Another writer appended too (our lock was lost): the log itself says whose batch won.
  const { log, state } = await readSessionLog(fh, await fh.stat(), key, file);
  const committed = batches.map((b) => {
    const lastEvent = b.events.at(-1)!;
    return log.events[b.fromVersion + b.events.length - 1]?.id === lastEvent.id && state.version >= b.fromVersion + b.events.length;
  });
  return { committed, state };
}
