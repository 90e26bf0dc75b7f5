import { constants, fstatSync, writeSync, type Stats } from 'node:fs';
import { open, stat, type FileHandle } from 'node:fs/promises';
import type { AgentEvent } from '../../events/agent-event.js';
import { ConcurrentUpdateError, SessionNotFoundError, SessionStoreError } from '../../errors/session-errors.js';
import type { SessionKey } from '../session.js';
import type { SessionLease } from '../session-lease.js';
import { committedBatches } from './append-fencing.js';
import { errorCode } from './durable-fs.js';
import { acquireLock, LockTimeout, lockHeldMessage, type HeldLock, type LockOptions } from './file-lock.js';
import { flushFile } from './flush-count.js';
import { readSessionLog, sameFile, type LogState } from './log-state.js';
import { encodeEventLines } from './session-log-format.js';
import type { AcceptedBatch, PrepareAppend, WriteHooks } from './write-hooks.js';

/** Work that needs the session's lock but writes no events (a lease change); queued with the appends. */
interface Exclusive {
  readonly run: () => Promise<unknown>;
  readonly resolve: (r: unknown) => void;
  readonly reject: (e: unknown) => void;
}

const isExclusive = (q: Waiting | Exclusive): q is Exclusive => 'run' in q;

interface Waiting {
  readonly events: readonly AgentEvent[];
  readonly expectedVersion: number;
  readonly lease?: SessionLease | undefined;
  readonly prepare?: PrepareAppend | undefined;
  readonly resolve: (r: { version: number }) => void;
  readonly reject: (e: unknown) => void;
}

/**
 * How long the lock and handle are kept after the last append (a tool's result often follows its
 * call by a few ms), and how long at most one hold may last before other processes get a turn.
 */
const LINGER_MS = 50;
const MAX_HOLD_MS = 250;

/**
 * Batches up to this size are written with a synchronous `write` (a copy into the page cache, a
 * few microseconds): no thread-pool round trip, so only the `fdatasync` waits in the pool. Larger
 * ones go through the pool so the event loop is not held up.
 */
const SYNC_WRITE_BYTES = 64 * 1024;

/**
 * Appends to one session file, for every caller in this process. Appends that arrive while a
 * write is in flight are committed together: one `write` of all their batches, one `fdatasync`,
 * then each caller is answered. Between flushes the lock file and the file handle are kept for a
 * moment (`LINGER_MS`; at most `MAX_HOLD_MS` in all, so other processes get their turn), so
 * an append in a busy session costs one write and one fdatasync.
 *
 * Fencing: the lock keeps writers apart, but an append never trusts it. Bytes go out with
 * O_APPEND in one `write`, so no writer overwrites another's; after `fdatasync` the file must have
 * grown by exactly our bytes (and still be the session's file), or the log is decoded again to see
 * whose batch won. A writer whose lock was deleted or broken under it gets `ConcurrentUpdateError`,
 * never a false success, and the losing bytes are skipped by every reader.
 */
export class SessionWriter {
  private readonly queue: (Waiting | Exclusive)[] = [];
  private flushing = false;
  private lease: { lock: HeldLock; fh: FileHandle; since: number } | undefined;
  private releaseTimer: NodeJS.Timeout | undefined;
  private state: LogState | undefined;

  constructor(
    private readonly path: string,
    private readonly file: string,
    private readonly key: SessionKey,
    private readonly lock: LockOptions,
    private readonly hooks: WriteHooks,
  ) {}

  /** Records what a reader decoded, so the next append need not read the file again. */
  observe(state: LogState): void {
    if (!this.flushing) this.state = state;
  }

  append(
    events: readonly AgentEvent[],
    expectedVersion: number,
    lease?: SessionLease,
    prepare?: PrepareAppend,
  ): Promise<{ version: number }> {
    return new Promise((resolve, reject) => {
      this.queue.push({ events, expectedVersion, lease, prepare, resolve, reject });
      if (!this.flushing) void this.flush();
    });
  }

  /**
   * Runs `run` holding the session's lock, in turn with the appends: the lock an append still
   * holds is used at once (a lease released right after a run's last append does not wait the
   * linger out). `SessionNotFoundError` when the session does not exist.
   */
  exclusive<T>(run: () => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ run, resolve: resolve as (r: unknown) => void, reject });
      if (!this.flushing) void this.flush();
    });
  }

  /** Waits for queued appends, then releases the lock and the handle. */
  async close(): Promise<void> {
    while (this.flushing || this.queue.length) await new Promise((r) => setImmediate(r));
    await this.release();
  }

  get idle(): boolean {
    return !this.flushing && !this.queue.length && !this.lease;
  }

  private async flush(): Promise<void> {
    this.flushing = true;
    while (this.queue.length) {
      const next = this.queue[0]!;
      if (isExclusive(next)) {
        this.queue.shift();
        await this.runExclusive(next);
        continue;
      }
      // Every append queued before the next exclusive work goes in one group commit.
      const stop = this.queue.findIndex(isExclusive);
      const group = this.queue.splice(0, stop < 0 ? this.queue.length : stop) as Waiting[];
      try {
        await this.commit(group);
      } catch (error) {
        for (const w of group) w.reject(error);
        this.state = undefined;
        await this.release().catch(() => undefined);
      }
    }
    if (this.lease && Date.now() - this.lease.since > MAX_HOLD_MS) await this.release().catch(() => undefined);
    this.flushing = false;
    if (this.queue.length)
      void this.flush(); // arrived while the lease was being released
    else this.scheduleRelease();
  }

  private scheduleRelease(): void {
    if (this.releaseTimer || !this.lease) return;
    this.releaseTimer = setTimeout(() => {
      this.releaseTimer = undefined;
      if (!this.flushing && !this.queue.length) void this.release().catch(() => undefined);
    }, LINGER_MS);
    this.releaseTimer.unref(); // a lingering lease never keeps the process alive; a dead holder's lock is broken
  }

  private async release(): Promise<void> {
    const lease = this.lease;
    this.lease = undefined;
    if (this.releaseTimer) clearTimeout(this.releaseTimer);
    this.releaseTimer = undefined;
    if (!lease) return;
    await lease.fh.close().catch(() => undefined);
    await lease.lock.release();
  }

  /**
   * Runs exclusive work under the lock, then lets the lock go unless appends are waiting for it:
   * a lease change does not announce an append, and a lock kept after a heartbeat's renewal would
   * keep other processes out of a session whose run has long been quiet (or stopped, SIGSTOP).
   */
  private async runExclusive(work: Exclusive): Promise<void> {
    let outcome: { ok: true; value: unknown } | { ok: false; error: unknown };
    try {
      const fh = await this.take();
      if (fh instanceof LockTimeout) throw new SessionStoreError(`Could not lock session "${this.key.id}": ${lockHeldMessage(fh)}`);
      outcome = { ok: true, value: await work.run() };
    } catch (error) {
      outcome = { ok: false, error };
    }
    // Let go before answering, so the caller finds the session free for other processes.
    if (!this.queue.length) await this.release().catch(() => undefined);
    if (outcome.ok) work.resolve(outcome.value);
    else work.reject(outcome.error);
  }

  /** The session's lock and an append handle: the ones still held, or taken now. */
  private async take(): Promise<FileHandle | LockTimeout> {
    if (this.lease) return this.lease.fh;
    let held: HeldLock | LockTimeout;
    try {
      held = await acquireLock(`${this.path}.lock`, this.lock);
    } catch (error) {
      if (errorCode(error) === 'ENOENT') throw new SessionNotFoundError(this.key.appName, this.key.userId, this.key.id);
      throw error;
    }
    if (held instanceof LockTimeout) return held;
    try {
      // O_APPEND without O_CREAT: a missing session is not created by appending to it.
      const fh = await open(this.path, constants.O_RDWR | constants.O_APPEND);
      this.lease = { lock: held, fh, since: Date.now() };
      return fh;
    } catch (error) {
      await held.release();
      if (errorCode(error) === 'ENOENT') throw new SessionNotFoundError(this.key.appName, this.key.userId, this.key.id);
      throw error;
    }
  }

  private async commit(group: readonly Waiting[]): Promise<void> {
    const leased = this.lease !== undefined;
    const fh = await this.take();
    if (fh instanceof LockTimeout) {
      for (const w of group) w.reject(new ConcurrentUpdateError(this.key.id, w.expectedVersion, this.state?.version ?? -1));
      return;
    }
    // One fstat: unchanged since our last write (or read), the file need not be read again; any
    // other change (another writer, an edit, damage) means decoding it afresh, so an append never
    // goes onto a log that a read would refuse.
    const info = fstatSync(fh.fd); // metadata only, no disk I/O: cheaper than a pool round trip
    let before: LogState;
    if (sameFile(this.state, info)) before = this.state!;
    else {
      if (!leased) {
        const onPath = await stat(this.path).catch(() => undefined);
        if (!onPath || onPath.ino !== info.ino) {
          // Deleted (or replaced) between opening and now: this handle writes nowhere anyone reads.
          await this.release();
          throw new SessionNotFoundError(this.key.appName, this.key.userId, this.key.id);
        }
      }
      if (info.nlink === 0) {
        // Deleted (perhaps re-created) by another process since our last append: start afresh.
        await this.release();
        this.state = undefined;
        return this.commit(group);
      }
      if (info.size === 0) {
        // A creation a power loss cut short: no session (the store reads it as absent too).
        await this.release();
        throw new SessionNotFoundError(this.key.appName, this.key.userId, this.key.id);
      }
      this.state = undefined;
      before = (await readSessionLog(fh, info, this.key, this.file)).state;
      this.state = before;
    }

    // Version checks and encoding per caller: one caller's bad batch fails only that caller.
    let version = before.version;
    const accepted: { waiting: Waiting; batch: AcceptedBatch; text: string; undo: (() => Promise<void>) | undefined }[] = [];
    for (const w of group) {
      if (w.lease && this.hooks.checkLease) {
        // Under the lock, like the version check: a lease taken over refuses the batch, nothing written.
        try {
          await this.hooks.checkLease(w.lease);
        } catch (error) {
          w.reject(error);
          continue;
        }
      }
      if (w.expectedVersion !== version) {
        w.reject(new ConcurrentUpdateError(this.key.id, w.expectedVersion, version));
        continue;
      }
      if (!w.events.length) {
        w.resolve({ version });
        continue;
      }
      let text: string;
      try {
        const after = !accepted.length && before.size !== before.end ? before.end : undefined;
        text = encodeEventLines(w.events, version, after);
      } catch (error) {
        w.reject(
          new SessionStoreError(
            `Could not append to session "${this.key.id}": an event is not serialisable as JSON (${(error as Error).message}). Nothing was written.`,
            { cause: error },
          ),
        );
        continue;
      }
      let undo: (() => Promise<void>) | undefined;
      try {
        undo = await w.prepare?.();
      } catch (error) {
        w.reject(error);
        continue;
      }
      accepted.push({ waiting: w, batch: { events: w.events, fromVersion: version }, text, undo });
      version += w.events.length;
    }
    if (!accepted.length) return;
    const batches = accepted.map((a) => a.batch);
    // Only while none of the batches' bytes can be in the log: once some may be, a reader may see them.
    const undoAll = async () => {
      for (const a of accepted) await a.undo?.().catch(() => undefined);
    };

    try {
      await this.hooks.before(batches);
    } catch (error) {
      await undoAll();
      for (const a of accepted) a.waiting.reject(error);
      return;
    }
    const data = Buffer.from((before.endsWithNewline ? '' : '\n') + accepted.map((a) => a.text).join(''));
    let committed: boolean[];
    let wrote = false; // a write that throws wrote nothing
    try {
      // One write call: O_APPEND puts it whole at the end, after any other writer's bytes.
      const bytesWritten = data.length <= SYNC_WRITE_BYTES ? writeSync(fh.fd, data) : (await fh.write(data, 0, data.length)).bytesWritten;
      wrote = true;
      if (bytesWritten !== data.length)
        throw new SessionStoreError(
          `Could not append to session "${this.key.id}" in ${this.file}: only ${bytesWritten} of ${data.length} bytes were written (disk full?). Nothing was committed; free space and retry.`,
        );
      // The size right after our write tells whether anything landed before or among our bytes.
      const info = fstatSync(fh.fd);
      await flushFile(fh, true);
      committed = await this.verify(fh, info, before, data.length, batches);
    } catch (error) {
      this.state = undefined;
      if (!wrote) await undoAll();
      await this.hooks
        .after(
          batches,
          batches.map(() => false),
        )
        .catch(() => undefined);
      throw error;
    }
    await this.hooks.after(batches, committed).catch(() => undefined);
    const now = this.state?.version ?? version;
    accepted.forEach((a, i) => {
      if (committed[i]) a.waiting.resolve({ version: a.batch.fromVersion + a.batch.events.length });
      else a.waiting.reject(new ConcurrentUpdateError(this.key.id, a.waiting.expectedVersion, now));
    });
  }

  /** Which batches are committed after our write (see `committedBatches`); none when the file is gone. */
  private async verify(
    fh: FileHandle,
    info: Stats,
    before: LogState,
    written: number,
    batches: readonly AcceptedBatch[],
  ): Promise<boolean[]> {
    if (info.nlink === 0) {
      // The file was deleted or replaced while we wrote (only possible with our lock gone).
      this.state = undefined;
      await this.release();
      return batches.map(() => false);
    }
    const { committed, state } = await committedBatches(fh, info, before, written, batches, this.key, this.file);
    this.state = state;
    return committed;
  }
}
