import type { RunResult, SessionKey } from '@replan/core';
import { NotifyListener } from './notify-listener.js';
import { RunNotQueuedError, RunQueueClosedError, RunSessionDeletedError } from './queue-errors.js';
import type { QueueBackend } from './run-queue.js';

type ReadResult = (key: SessionKey) => Promise<{ jobId: string; result?: RunResult }>;

interface Waiter {
  readonly key: SessionKey;
  jobId?: string;
  checking: boolean;
  recheck: boolean;
  settle(result: RunResult | undefined, error?: unknown): void;
}

/**
 * The `waitFor`s of one queue, woken by NOTIFY on the done channel (payload: the job id). Each
 * waiter reads its job row after LISTEN is in effect and again on every wake-up (or reconnect),
 * so an outcome committed at any moment is seen: there is no polling loop.
 */
export class RunWaiters {
  private readonly waiters = new Set<Waiter>();
  private listener: NotifyListener | undefined;

  constructor(
    private readonly backend: QueueBackend,
    private readonly read: ReadResult,
  ) {}

  async wait(key: SessionKey, signal: AbortSignal | undefined): Promise<RunResult> {
    this.listener ??= new NotifyListener({
      pool: this.backend.pool,
      channels: [this.backend.tables.doneChannel],
      onNotify: (_channel, payload) => {
        for (const w of this.waiters) if (w.jobId === undefined || w.jobId === payload) this.check(w);
      },
      onReconnect: () => {
        for (const w of this.waiters) this.check(w);
      },
      onError: () => undefined, // it reconnects by itself and re-checks every waiter then
    });
    await this.listener.ready();
    return new Promise<RunResult>((resolve, reject) => {
      const onAbort = () => waiter.settle(undefined, signal?.reason);
      const waiter: Waiter = {
        key,
        checking: false,
        recheck: false,
        settle: (result, error) => {
          if (!this.waiters.delete(waiter)) return;
          signal?.removeEventListener('abort', onAbort);
          if (result) resolve(result);
          else reject(error);
        },
      };
      this.waiters.add(waiter);
      signal?.addEventListener('abort', onAbort, { once: true });
      if (signal?.aborted) onAbort();
      this.check(waiter);
    });
  }

  /** Rejects every pending wait and stops listening. */
  async close(): Promise<void> {
    for (const w of [...this.waiters]) w.settle(undefined, new RunQueueClosedError(w.key.id));
    await this.listener?.close();
    this.listener = undefined;
  }

  /** Reads the waiter's job row; a wake-up during a read makes it read once more afterwards. */
  private check(waiter: Waiter): void {
    if (waiter.checking) {
      waiter.recheck = true;
      return;
    }
    waiter.checking = true;
    this.read(waiter.key).then(
      ({ jobId, result }) => {
        waiter.jobId = jobId;
        waiter.checking = false;
        if (result) waiter.settle(result);
        else if (waiter.recheck) {
          waiter.recheck = false;
          this.check(waiter);
        }
      },
      (error: unknown) => {
        waiter.checking = false;
        // Its job was there and is gone now: the session was deleted (the job went with it).
        const deleted = waiter.jobId !== undefined && error instanceof RunNotQueuedError;
        const { appName, userId, id } = waiter.key;
        waiter.settle(undefined, deleted ? new RunSessionDeletedError(appName, userId, id) : error);
      },
    );
  }
}
