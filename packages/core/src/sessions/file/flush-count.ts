import type { FileHandle } from 'node:fs/promises';

let flushes = 0;

/**
 * How many flushes (`fsync`/`fdatasync`) the file store has made in this process. Internal: a
 * test counts a run's flushes with it instead of timing them (a flush costs 0.5–10 ms, so its
 * count, not the wall clock, is what must not grow).
 */
export function fileStoreFlushes(): number {
  return flushes;
}

/** `fsync` (`data`: `fdatasync`, the data and the metadata needed to read it back) of an open file, counted. */
export async function flushFile(fh: FileHandle, data = false): Promise<void> {
  flushes++;
  await (data ? fh.datasync() : fh.sync());
}
