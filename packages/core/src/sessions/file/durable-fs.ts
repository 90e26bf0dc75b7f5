import { randomBytes } from 'node:crypto';
import type { Stats } from 'node:fs';
import { link, mkdir, open, rename, stat, unlink, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';
import { flushFile } from './flush-count.js';

/** Node's errno-carrying error. */
export function errorCode(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | undefined)?.code;
}

/** Writes the whole buffer at `position`; the kernel may write less than asked in one call. */
export async function writeAll(fh: FileHandle, data: Buffer, position: number): Promise<void> {
  let done = 0;
  while (done < data.length) {
    const { bytesWritten } = await fh.write(data, done, data.length - done, position + done);
    done += bytesWritten;
  }
}

/**
 * Flushes a directory so a file created, renamed or removed in it survives a power loss.
 * Some platforms (Windows) cannot open directories; there the rename itself is what we get.
 */
export async function syncDir(path: string): Promise<void> {
  let fh: FileHandle | undefined;
  try {
    fh = await open(path, 'r');
    await flushFile(fh);
  } catch (error) {
    if (!['EISDIR', 'EPERM', 'EACCES', 'EINVAL', 'ENOTSUP'].includes(errorCode(error) ?? '')) throw error;
  } finally {
    await fh?.close();
  }
}

/** Creates `path`'s directory (and parents) and makes each new entry durable. */
export async function ensureDir(path: string): Promise<void> {
  const first = await mkdir(path, { recursive: true });
  if (first === undefined) return;
  // Flush every directory from the parent of the first one created down to `path`.
  for (let d = path; ; d = dirname(d)) {
    await syncDir(d);
    if (d === dirname(first) || d === dirname(d)) break;
  }
}

/** A name next to `path` that no other writer will pick. */
export function tempPathFor(path: string): string {
  return `${path}.tmp-${process.pid}-${randomBytes(6).toString('hex')}`;
}

/**
 * Whether one `fsync` of a file also makes a name just linked or renamed to it durable. On Linux
 * the journaling file systems (ext4, XFS, btrfs) commit the new directory entry in the same
 * journal transaction as the inode change the link made, and `fsync` of the file commits that
 * transaction; elsewhere (macOS, Windows) the directory is flushed as well.
 */
const FSYNC_COMMITS_NEW_NAME = process.platform === 'linux';

/** Writes `data` to a temporary file next to `path` (not flushed); returns its handle and path. */
async function writeTemp(path: string, data: Buffer): Promise<{ fh: FileHandle; temp: string }> {
  const temp = tempPathFor(path);
  const fh = await open(temp, 'wx');
  try {
    await writeAll(fh, data, 0);
  } catch (error) {
    await fh.close();
    await unlink(temp).catch(() => undefined);
    throw error;
  }
  return { fh, temp };
}

/**
 * Creates `path` with `data` only if it does not exist, all or nothing: the content is written
 * under a temporary name and hard-linked into place (link fails if `path` exists). Returns
 * `false` when `path` already existed.
 *
 * Durable when it returns, in two flushes by default: the content before the link, the
 * directory after it, so no crash can leave the name with less than the whole content (a blob
 * must never be named by a log and then be found short). With `oneFlush`, the file is flushed
 * once after the link, which on Linux commits its new name with it (`FSYNC_COMMITS_NEW_NAME`;
 * elsewhere the directory is flushed as well). A reader may see the file before that flush
 * returns, and a power loss in that instant can leave it empty on some file systems: only for
 * files whose readers take an empty file as absent (a session log).
 */
export async function createFileExclusive(path: string, data: Buffer, { oneFlush = false }: { oneFlush?: boolean } = {}): Promise<boolean> {
  await ensureDir(dirname(path));
  const { fh, temp } = await writeTemp(path, data);
  try {
    if (!oneFlush) await flushFile(fh);
    try {
      await link(temp, path);
    } catch (error) {
      if (errorCode(error) === 'EEXIST') return false;
      throw error;
    }
    await unlink(temp).catch(() => undefined); // before the flush, so the flush commits it too
    try {
      if (oneFlush) await flushFile(fh);
      if (!oneFlush || !FSYNC_COMMITS_NEW_NAME) await syncDir(dirname(path));
    } catch (error) {
      // Not durable, so not created: take the name back rather than leave a file a crash may lose.
      await unlink(path).catch(() => undefined);
      throw error;
    }
    return true;
  } finally {
    await fh.close();
    await unlink(temp).catch(() => undefined);
  }
}

/**
 * Replaces `path` with `data` atomically (write, rename): readers see old or new, never half.
 * With `flush` (the default) the new content and name are durable when it returns; without it,
 * a power loss may leave the old content, the new one, or (on some file systems) an empty file —
 * only for data whose loss in a crash does not matter (a lease: its holder died in that crash).
 */
export async function replaceFile(path: string, data: Buffer, { flush = true }: { flush?: boolean } = {}): Promise<void> {
  await ensureDir(dirname(path));
  const { fh, temp } = await writeTemp(path, data);
  try {
    // Flushed before the rename: on file systems that do not order data before names, a crash
    // must not leave the name pointing at content that never reached the disk.
    if (flush) await flushFile(fh);
    await rename(temp, path);
  } catch (error) {
    await unlink(temp).catch(() => undefined);
    throw error;
  } finally {
    await fh.close();
  }
  if (flush) await syncDir(dirname(path));
}

/** The file's stat, or `undefined` when there is none. */
export async function statOf(path: string): Promise<Stats | undefined> {
  try {
    return await stat(path);
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return undefined;
    throw error;
  }
}

/** The first line of a file (without its newline), or `undefined` when it has none yet. */
export async function readFirstLine(fh: FileHandle): Promise<string | undefined> {
  const parts: Buffer[] = [];
  for (let pos = 0, size = 4096; ; size *= 2) {
    const buf = Buffer.alloc(size);
    const { bytesRead } = await fh.read(buf, 0, size, pos);
    const nl = buf.subarray(0, bytesRead).indexOf(0x0a);
    if (nl >= 0) return Buffer.concat([...parts, buf.subarray(0, nl)]).toString('utf8');
    if (bytesRead === 0) return undefined;
    parts.push(buf.subarray(0, bytesRead));
    pos += bytesRead;
  }
}
