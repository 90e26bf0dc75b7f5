import { randomBytes } from 'node:crypto';
import { open, readFile, stat, unlink, type FileHandle } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { holderState, thisProcess, type HolderProcess } from '../holder-process.js';
import { errorCode } from './durable-fs.js';

export interface LockOptions {
  /** How long to wait for another writer to finish before giving up. */
  readonly timeoutMs: number;
  /** A lock older than this is taken to be left by a dead writer (for writers on other hosts). */
  readonly staleMs: number;
}

/** Who holds a lock: written into the lock file so others can tell a live writer from a dead one. */
interface LockOwner extends HolderProcess {
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

/** What a lock-timeout error says: who holds the lock and what to do (never: delete it by hand). */
export function lockHeldMessage(timeout: LockTimeout): string {
  return (
    `another replan process holds ${timeout.lockPath} (${timeout.holder}) and is still alive. ` +
    'Wait for it to finish or stop that process, then retry: a lock whose process has exited is broken ' +
    'automatically (on another host: once older than staleLockMs).'
  );
}

/**
 * Takes the lock file `lockPath` (created with O_EXCL, so exactly one process wins), waiting for
 * the current holder to finish. A lock whose holder died is broken: on this host when its pid is
 * gone, elsewhere when it is older than `staleMs`. Returns a `LockTimeout` instead of throwing so
 * each caller can raise the error that fits (a version conflict, or a store error).
 */
export async function acquireLock(lockPath: string, options: LockOptions): Promise<HeldLock | LockTimeout> {
  const owner: LockOwner = { ...thisProcess(), token: randomBytes(8).toString('hex'), since: Date.now() };
  const body = JSON.stringify(owner);
  const deadline = Date.now() + options.timeoutMs;
  let delay = 1;
  for (;;) {
    const created = await createLockFile(lockPath, body);
    if (created) return { release: () => releaseLock(lockPath, created) };
    const seen = await readLock(lockPath);
    if (!seen) continue; // released between our attempt and the read: try again at once
    if (await isStale(seen, options.staleMs)) {
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
 * Creates the lock file (O_EXCL, so exactly one process wins) and writes its owner into it.
 * Returns its identity (device and inode), or `undefined` when the lock is already held. A writer
 * killed between the create and the write leaves an empty lock: no owner to ask, so its age
 * decides (`EMPTY_LOCK_STALE_MS`) — a live writer fills it within microseconds.
 */
async function createLockFile(lockPath: string, body: string): Promise<{ dev: number; ino: number } | undefined> {
  let fh: FileHandle;
  try {
    fh = await open(lockPath, 'wx');
  } catch (error) {
    if (errorCode(error) === 'EEXIST') return undefined;
    throw error;
  }
  try {
    await fh.write(body, 0);
    const info = await fh.stat();
    return { dev: info.dev, ino: info.ino };
  } catch (error) {
    await unlink(lockPath).catch(() => undefined);
    throw error;
  } finally {
    await fh.close();
  }
}

/** An empty or unreadable lock older than this is taken as left by a writer killed while creating it. */
const EMPTY_LOCK_STALE_MS = 2_000;

interface SeenLock {
  readonly raw: string;
  readonly owner?: LockOwner | undefined;
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

/**
 * Whether a lock's holder is gone. On this machine and pid namespace: its process has exited or
 * its pid was reused (`holderState`). Elsewhere: the lock is older than `staleMs`.
 * Breaking a live holder's lock by mistake costs no data — appends are fenced (see session-writer.ts)
 * — only a `ConcurrentUpdateError` for one of the two writers.
 */
async function isStale(seen: SeenLock, staleMs: number): Promise<boolean> {
  const owner = seen.owner;
  if (!owner) return Date.now() - seen.mtimeMs > Math.min(staleMs, EMPTY_LOCK_STALE_MS);
  const state = typeof owner.host === 'string' && typeof owner.pid === 'number' ? await holderState(owner) : 'unknown';
  if (state !== 'unknown') return state === 'gone';
  return Date.now() - seen.mtimeMs > staleMs;
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

async function releaseLock(lockPath: string, ours: { dev: number; ino: number }): Promise<void> {
  // Only remove our own lock: if it was (wrongly) broken, another writer's lock must stay.
  const current = await stat(lockPath).catch(() => undefined);
  if (current && current.ino === ours.ino && current.dev === ours.dev) await unlink(lockPath).catch(() => undefined);
}
