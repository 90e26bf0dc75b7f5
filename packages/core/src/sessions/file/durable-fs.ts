import { randomBytes } from 'node:crypto';
import { link, mkdir, open, rename, unlink, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';

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
    await fh.sync();
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

/** Writes `data` to a temporary file next to `path` and flushes it; returns the temporary path. */
async function writeTemp(path: string, data: Buffer): Promise<string> {
  const temp = tempPathFor(path);
  const fh = await open(temp, 'wx');
  try {
    await writeAll(fh, data, 0);
    await fh.sync();
  } finally {
    await fh.close();
  }
  return temp;
}

/**
 * Creates `path` with `data` only if it does not exist, all or nothing: the content is written
 * and flushed under a temporary name, then hard-linked into place (link fails if `path` exists).
 * Returns `false` when `path` already existed.
 */
export async function createFileExclusive(path: string, data: Buffer): Promise<boolean> {
  await ensureDir(dirname(path));
  const temp = await writeTemp(path, data);
  try {
    await link(temp, path);
  } catch (error) {
    if (errorCode(error) === 'EEXIST') return false;
    throw error;
  } finally {
    await unlink(temp).catch(() => undefined);
  }
  await syncDir(dirname(path));
  return true;
}

/** Replaces `path` with `data` atomically (write, flush, rename): readers see old or new, never half. */
export async function replaceFile(path: string, data: Buffer): Promise<void> {
  await ensureDir(dirname(path));
  const temp = await writeTemp(path, data);
  try {
    await rename(temp, path);
  } catch (error) {
    await unlink(temp).catch(() => undefined);
    throw error;
  }
  await syncDir(dirname(path));
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
