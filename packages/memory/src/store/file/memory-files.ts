import { createHash, randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { link, mkdir, open, type FileHandle, unlink } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Scope } from '../memory-rules.js';

const hash = (value: string) => createHash('sha256').update(value, 'utf8').digest('hex');

/**
 * Where a `FileMemoryStore` keeps each scope, below its `dir`: `memories/<app>/app.jsonl` for the
 * app's scope and `memories/<app>/users/<user>.jsonl` for each user, where `<app>` and `<user>` are
 * SHA-256 hex digests of the ids. No path is ever built from an id's characters, so no id (`../x`,
 * `con`, 10 kB, case twins on macOS) can name another file; each file's first line records its
 * scope in full, and a file whose scope differs is refused.
 */
export function scopeFile(dir: string, scope: Scope): string {
  const app = join(dir, 'memories', hash(scope.appName));
  return scope.userId === undefined ? join(app, 'app.jsonl') : join(app, 'users', `${hash(scope.userId)}.jsonl`);
}

/** The first line of a scope's log: its scope, in full. */
export function headerLine(scope: Scope): string {
  return `${JSON.stringify({ memories: 1, scope: [scope.appName, scope.userId ?? null] })}\n`;
}

export function errorCode(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | undefined)?.code;
}

/** Flushes a directory so a name just created in it survives a power loss (where directories can be opened). */
async function syncDir(path: string): Promise<void> {
  const fh = await open(path, 'r').catch(() => undefined);
  try {
    await fh?.sync();
  } catch (error) {
    if (!['EISDIR', 'EPERM', 'EACCES', 'EINVAL', 'ENOTSUP'].includes(errorCode(error) ?? '')) throw error;
  } finally {
    await fh?.close();
  }
}

/**
 * Creates `path` holding `header`, all or nothing: written and flushed under a temporary name, then
 * hard-linked into place (so a reader never sees a file without its header; if another process
 * created it first, that one stays).
 */
export async function createWithHeader(path: string, header: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const temp = `${path}.tmp-${process.pid}-${randomBytes(6).toString('hex')}`;
  const fh = await open(temp, 'wx');
  try {
    await fh.writeFile(header);
    await fh.sync();
    await link(temp, path).catch((error) => {
      if (errorCode(error) !== 'EEXIST') throw error;
    });
    await syncDir(dirname(path));
  } finally {
    await fh.close();
    await unlink(temp).catch(() => undefined);
  }
}

/** Opens `path` for appending, creating it with `header` first when it does not exist. */
export async function openForAppend(path: string, header: string): Promise<FileHandle> {
  for (;;) {
    try {
      return await open(path, constants.O_WRONLY | constants.O_APPEND); // never O_CREAT: a new file gets its header first
    } catch (error) {
      if (errorCode(error) !== 'ENOENT') throw error;
    }
    await createWithHeader(path, header);
  }
}
