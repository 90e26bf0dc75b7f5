import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { link, open, readFile, stat, unlink, writeFile } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { errorCode, tempPathFor } from './durable-fs.js';

export interface LockOptions {
  /** How long to wait for another writer to finish before giving up. */
  readonly timeoutMs: number;
  /** A lock older than this is taken to be left by a dead writer (for writers on other hosts). */
  readonly staleMs: number;
}

/** Who holds a lock: written into the lock file so others can tell a live writer from a dead one. */
interface LockOwner {
  readonly pid: number;
  readonly host: string;
  readonly token: string;
  readonly since: number;
}

/** A held lock; `release` removes the lock file only if it is still ours. */
export interface HeldLock {
  release(): Promise<void>;
}

/** The lock could not be taken within `timeoutMs`: another live writer holds it. */
export class LockTimeout {
  constructor(
    readonly lockPath: string,
    readonly holder: string,
  ) {}
}

const HOST = hostname();

/**
 * Takes the lock file `lockPath` (created with O_EXCL, so exactly one process wins), waiting for
 * the current holder to finish. A lock whose holder died is broken: on this host when its pid is
 * gone, elsewhere when it is older than `staleMs`. Returns a `LockTimeout` instead of throwing so
 * each caller can raise the error that fits (a version conflict, or a store error).
 */
export async function acquireLock(lockPath: string, options: LockOptions): Promise<HeldLock | LockTimeout> {
  const owner: LockOwner = { pid: process.pid, host: HOST, token: randomBytes(8).toString('hex'), since: Date.now() };
  const body = JSON.stringify(owner);
  const deadline = Date.now() + options.timeoutMs;
  let delay = 1;
  for (;;) {
    if (await createLockFile(lockPath, body)) return { release: () => releaseLock(lockPath, body) };
    const seen = await readLock(lockPath);
    if (!seen) continue; // released between our attempt and the read: try again at once
    if (isStale(seen, options.staleMs)) {
      await breakStaleLock(lockPath, seen.raw, options.staleMs);
      continue;
    }
    if (Date.now() >= deadline) return new LockTimeout(lockPath, seen.raw);
    // Jittered backoff: appends take milliseconds, so start small.
    await sleep(delay + Math.random() * delay);
    delay = Math.min(delay * 2, 25);
  }
}

/**
 * Creates the lock file with its content in one step: written under a temporary name, then
 * hard-linked into place (link fails if the lock exists). A writer killed between creating an
 * empty lock and writing its pid would otherwise leave a lock nobody can prove dead.
 * Returns `false` when the lock is already held.
 */
async function createLockFile(lockPath: string, body: string): Promise<boolean> {
  const temp = tempPathFor(lockPath);
  await writeFile(temp, body, { flag: 'wx' });
  try {
    await link(temp, lockPath);
    return true;
  } catch (error) {
    if (errorCode(error) === 'EEXIST') return false;
    if (!['EPERM', 'ENOTSUP', 'ENOSYS'].includes(errorCode(error) ?? '')) throw error;
    // No hard links here (some network or FAT file systems): O_EXCL create, then write.
    return createLockFileWithoutLink(lockPath, body);
  } finally {
    await unlink(temp).catch(() => undefined);
  }
}

async function createLockFileWithoutLink(lockPath: string, body: string): Promise<boolean> {
  try {
    const fh = await open(lockPath, 'wx');
    try {
      await fh.writeFile(body);
    } finally {
      await fh.close();
    }
    return true;
  } catch (error) {
    if (errorCode(error) === 'EEXIST') return false;
    throw error;
  }
}

interface SeenLock {
  readonly raw: string;
  readonly owner?: LockOwner;
  readonly mtimeMs: number;
}

async function readLock(lockPath: string): Promise<SeenLock | undefined> {
  try {
    const [raw, info] = await Promise.all([readFile(lockPath, 'utf8'), stat(lockPath)]);
    let owner: LockOwner | undefined;
    try {
      owner = JSON.parse(raw) as LockOwner;
    } catch {
      // Just created and not written yet, or torn by a crash: judge it by its age alone.
    }
    return { raw, owner, mtimeMs: info.mtimeMs };
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return undefined;
    throw error;
  }
}

function isStale(seen: SeenLock, staleMs: number): boolean {
  const owner = seen.owner;
  if (owner && owner.host === HOST && typeof owner.pid === 'number') {
    if (owner.pid === process.pid) return false;
    if (!processAlive(owner.pid)) return true;
  }
  return Date.now() - seen.mtimeMs > staleMs;
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to another user.
    return errorCode(error) === 'EPERM';
  }
}

/**
 * Removes a stale lock without racing other breakers: whoever holds `<lock>.break` (O_EXCL)
 * re-reads the lock and removes it only if it is still the same stale content. Without this, two
 * processes could both see the stale lock, one replace it, and the other delete the fresh one.
 */
async function breakStaleLock(lockPath: string, staleRaw: string, staleMs: number): Promise<void> {
  const breaker = `${lockPath}.break`;
  try {
    const fh = await open(breaker, 'wx');
    await fh.close();
  } catch (error) {
    if (errorCode(error) !== 'EEXIST') throw error;
    // A breaker that died mid-break leaves its file; it is tiny-lived, so age tells.
    const info = await stat(breaker).catch(() => undefined);
    if (info && Date.now() - info.mtimeMs > Math.min(staleMs, 5_000)) await unlink(breaker).catch(() => undefined);
    return;
  }
  try {
    const again = await readLock(lockPath);
    if (again && again.raw === staleRaw) await unlink(lockPath).catch(() => undefined);
  } finally {
    await unlink(breaker).catch(() => undefined);
  }
}

async function releaseLock(lockPath: string, body: string): Promise<void> {
  // Only remove our own lock: if it was (wrongly) broken, another writer's lock must stay.
  const current = await readFile(lockPath, 'utf8').catch(() => undefined);
  if (current === body) await unlink(lockPath).catch(() => undefined);
}
