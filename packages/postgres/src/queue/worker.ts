import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { ConfigurationError, SessionBusyError, SessionStoreError, type Runner, type RunResult } from '@replan/core';
import { claimJobs, finishJob, handBackJob, nextDueInMs, renewJobs, type ClaimedJob } from './job-claims.js';
import { encodeJobResult, failureResult, jobStatusOf } from './job-result.js';
import { NotifyListener } from './notify-listener.js';
import { RunAttemptsExhaustedError } from './queue-errors.js';
import { queueBackend, type PostgresRunQueue, type QueueBackend } from './run-queue.js';

export interface WorkerOptions {
  readonly queue: PostgresRunQueue;
  /** The runner of each app this worker serves, by app name (each on a store of the queue's database). */
  readonly runners: Readonly<Record<string, Runner>>;
  /** Runs held at once (default 4). */
  readonly concurrency?: number;
  /**
   * How long a claim lasts without a heartbeat (default 30 000 ms; renewed every third of it).
   * A crashed worker's runs are taken over this long after its last heartbeat. Give the apps'
   * runners the same `leaseMs`.
   */
  readonly leaseMs?: number;
  /** This worker's identity in job rows and leases (default `host:pid:random`). */
  readonly owner?: string;
  /** Claims of one run (crashes, lost leases) before it is failed (default 10). */
  readonly maxAttempts?: number;
  /** Background failures (a heartbeat, a claim, the LISTEN connection); default `console.warn`. */
  readonly onError?: (error: Error) => void;
}

export interface StopOptions {
  /**
   * How long held runs may take to finish (default: as long as they need). Runs still going then
   * are aborted and handed back to the queue, where another worker resumes them.
   */
  readonly graceMs?: number;
}

interface HeldJob {
  readonly job: ClaimedJob;
  readonly abort: AbortController;
  /** Another worker owns the job now (the heartbeat found it taken): record nothing. */
  lost: boolean;
  done: Promise<void>;
}

/** The longest the worker sleeps without a NOTIFY before looking for expired leases anyway. */
const SAFETY_WAKE_MS = 60_000;

/**
 * Claims runs from a `PostgresRunQueue` and drives them with the apps' runners. Woken by NOTIFY
 * when runs are submitted or handed back, and by a timer when the next lease will expire (a
 * crashed worker's runs are then taken over by resuming them: finished steps and tool calls are
 * not run again). Heartbeats its claims every `leaseMs / 3`.
 */
export class Worker {
  readonly owner: string;
  private readonly backend: QueueBackend;
  private readonly runners: Readonly<Record<string, Runner>>;
  private readonly apps: string[];
  private readonly concurrency: number;
  private readonly leaseMs: number;
  private readonly maxAttempts: number;
  private readonly onError: (error: Error) => void;
  private readonly held = new Map<string, HeldJob>();
  private listener: NotifyListener | undefined;
  private heartbeat: NodeJS.Timeout | undefined;
  private wakeTimer: NodeJS.Timeout | undefined;
  private lastRenewal = 0;
  private state: 'idle' | 'running' | 'stopping' | 'stopped' = 'idle';
  private pumping = false;
  private renewing = false;
  private pumpAgain = false;

  constructor(options: WorkerOptions) {
    if (!options?.queue) throw new ConfigurationError('Worker needs a queue: new Worker({ queue, runners: { [appName]: runner } }).');
    this.backend = queueBackend(options.queue);
    this.runners = options.runners ?? {};
    this.apps = Object.keys(this.runners);
    if (!this.apps.length) throw new ConfigurationError('Worker needs at least one runner: runners: { [appName]: runner }.');
    for (const [app, runner] of Object.entries(this.runners))
      if (runner?.appName !== app)
        throw new ConfigurationError(
          `Worker runners["${app}"] must be a Runner whose appName is "${app}" (got ${JSON.stringify(runner?.appName)}).`,
        );
    this.concurrency = positiveInteger('concurrency', options.concurrency ?? 4);
    this.leaseMs = positiveInteger('leaseMs', options.leaseMs ?? 30_000);
    if (this.leaseMs < 30) throw new ConfigurationError(`Worker leaseMs must be at least 30 ms, got ${this.leaseMs}.`);
    this.maxAttempts = positiveInteger('maxAttempts', options.maxAttempts ?? 10);
    this.owner = options.owner ?? `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
    this.onError = options.onError ?? ((error) => console.warn(`replan worker ${this.owner}: ${error.message}`));
  }

  /** Runs held right now. */
  get activeRuns(): number {
    return this.held.size;
  }

  /** Starts listening and claiming. Resolves once LISTEN is in effect and the first claim round ran. */
  async start(): Promise<void> {
    if (this.state !== 'idle')
      throw new ConfigurationError(`Worker ${this.owner} was already started; create a new Worker to start again.`);
    this.state = 'running';
    try {
      await this.listen();
    } catch (error) {
      this.state = 'idle'; // nothing claimed yet: start() may be called again
      await this.listener?.close();
      throw error;
    }
    this.heartbeat = setInterval(() => void this.renew(), Math.max(10, Math.floor(this.leaseMs / 3)));
    this.lastRenewal = Date.now();
    await this.pumpNow();
  }

  private async listen(): Promise<void> {
    await this.backend.ready();
    this.listener = new NotifyListener({
      pool: this.backend.pool,
      channels: [this.backend.tables.workChannel],
      onNotify: (_channel, app) => {
        if (app === undefined || this.apps.includes(app)) this.pump();
      },
      onReconnect: () => this.pump(),
      onError: (error) => this.onError(new Error(`the LISTEN connection failed (${error.message}); reconnecting`, { cause: error })),
    });
    await this.listener.ready();
  }

  /**
   * Stops claiming, then waits for the runs it holds to finish; after `graceMs`, aborts the rest
   * and hands them back to the queue. No run is lost: each ends recorded or back in the queue.
   */
  async stop(options: StopOptions = {}): Promise<void> {
    if (this.state === 'idle' || this.state === 'stopped') {
      this.state = 'stopped';
      return;
    }
    this.state = 'stopping';
    clearTimeout(this.wakeTimer);
    await this.listener?.close();
    while (this.pumping) await new Promise((r) => setTimeout(r, 5));
    const all = () => Promise.all([...this.held.values()].map((h) => h.done));
    if (options.graceMs === undefined) await all();
    else {
      let timer: NodeJS.Timeout | undefined;
      const grace = new Promise<void>((r) => (timer = setTimeout(r, options.graceMs)));
      await Promise.race([all(), grace]);
      clearTimeout(timer);
      for (const h of this.held.values()) h.abort.abort(new Error(`Worker ${this.owner} is stopping; the run goes back to the queue.`));
      await all();
    }
    clearInterval(this.heartbeat);
    this.state = 'stopped';
  }

  /** Starts a claim round, or asks the running one to go again (a wake-up is never dropped). */
  private pump(): void {
    void this.pumpNow();
  }

  private async pumpNow(): Promise<void> {
    if (this.pumping) {
      this.pumpAgain = true;
      return;
    }
    this.pumping = true;
    try {
      do {
        this.pumpAgain = false;
        while (this.state === 'running' && this.held.size < this.concurrency) {
          const jobs = await claimJobs(this.backend.pool, this.backend.tables, {
            owner: this.owner,
            leaseMs: this.leaseMs,
            apps: this.apps,
            limit: this.concurrency - this.held.size,
          });
          for (const job of jobs) this.take(job);
          if (!jobs.length) break;
        }
      } while (this.pumpAgain && this.state === 'running');
      if (this.state === 'running') await this.scheduleWake();
    } catch (error) {
      this.onError(new Error(`claiming runs failed (${(error as Error).message}); trying again shortly`, { cause: error }));
      if (this.state === 'running') this.setWake(Math.min(1_000, this.leaseMs));
    } finally {
      this.pumping = false;
    }
  }

  /** Sleeps until the next lease expiry or delayed job, at most a minute (NOTIFY wakes it sooner). */
  private async scheduleWake(): Promise<void> {
    if (this.held.size >= this.concurrency) return; // a finishing run pumps again
    const due = await nextDueInMs(this.backend.pool, this.backend.tables, this.apps);
    this.setWake(due === undefined ? SAFETY_WAKE_MS : Math.min(SAFETY_WAKE_MS, due + 5));
  }

  private setWake(ms: number): void {
    clearTimeout(this.wakeTimer);
    if (this.state !== 'running') return;
    this.wakeTimer = setTimeout(() => this.pump(), ms);
    this.wakeTimer.unref();
  }

  private take(job: ClaimedJob): void {
    const entry: HeldJob = { job, abort: new AbortController(), lost: false, done: Promise.resolve() };
    this.held.set(job.id, entry);
    entry.done = this.execute(entry)
      .catch((error: unknown) =>
        this.onError(new Error(`recording session "${job.sessionId}" failed: ${(error as Error).message}`, { cause: error })),
      )
      .finally(() => {
        this.held.delete(job.id);
        if (this.state === 'running') this.pump();
      });
  }

  private async execute(entry: HeldJob): Promise<void> {
    const { job } = entry;
    const { pool, tables } = this.backend;
    if (this.state !== 'running') {
      await handBackJob(pool, tables, job, 0, true);
      return;
    }
    if (job.attempts > this.maxAttempts) {
      await finishJob(pool, tables, job, 'failed', failureResult('', new RunAttemptsExhaustedError(job.sessionId, job.attempts - 1)));
      return;
    }
    const runner = this.runners[job.appName] as Runner;
    let result: RunResult;
    try {
      result = await runner
        .resume({
          userId: job.userId,
          sessionId: job.sessionId,
          ...(job.resumeValues ? { values: job.resumeValues } : {}),
          signal: entry.abort.signal,
        })
        .result();
    } catch (error) {
      if (entry.lost) return;
      // A live lease elsewhere (a slow worker, a direct resume): try again once it may have ended.
      if (error instanceof SessionBusyError) {
        await handBackJob(pool, tables, job, this.busyDelay(error), true);
        return;
      }
      await finishJob(pool, tables, job, 'failed', failureResult('', error as Error));
      return;
    }
    if (entry.lost) return;
    if (result.status === 'aborted' && entry.abort.signal.aborted) {
      await handBackJob(pool, tables, job, 0, true); // stopping: another worker resumes it
      return;
    }
    if (result.error?.name === 'LeaseLostError') {
      await handBackJob(pool, tables, job, 0, false); // someone else drives the session now
      return;
    }
    // The database connection failed mid-run: nothing acknowledged is lost, so it is retried
    // (resumed) a second later, counting an attempt, rather than failed for good.
    if (result.status === 'failed' && result.error instanceof SessionStoreError && result.error.kind === 'connection') {
      await handBackJob(pool, tables, job, 1_000, false);
      return;
    }
    await finishJob(pool, tables, job, jobStatusOf(result.status), encodeJobResult(result));
  }

  /** When a busy session's lease may be free: its expiry when the error names it, else a third of our lease. */
  private busyDelay(error: SessionBusyError): number {
    const expiresAt = (error as { expiresAt?: unknown }).expiresAt;
    const fallback = this.leaseMs / 3;
    return typeof expiresAt === 'number' ? Math.min(this.leaseMs, Math.max(0, expiresAt - Date.now()) + 10) : fallback;
  }

  /** Heartbeat: extends every held claim; a claim found taken over aborts its run, recording nothing. */
  private async renew(): Promise<void> {
    if (this.renewing) return; // a slow renewal still running: the next tick tries again
    this.renewing = true;
    try {
      await this.renewHeld();
    } finally {
      this.renewing = false;
    }
  }

  private async renewHeld(): Promise<void> {
    const entries = [...this.held.values()].filter((h) => !h.lost);
    if (!entries.length) {
      this.lastRenewal = Date.now();
      return;
    }
    const started = Date.now();
    try {
      const renewed = await renewJobs(
        this.backend.pool,
        this.backend.tables,
        this.leaseMs,
        entries.map((h) => h.job),
      );
      this.lastRenewal = started;
      for (const h of entries) if (!renewed.has(h.job.id) && this.held.get(h.job.id) === h) this.lose(h);
    } catch (error) {
      this.onError(new Error(`renewing leases failed (${(error as Error).message})`, { cause: error }));
      // Past our own expiry another worker may already hold these runs: stop writing at once.
      if (Date.now() - this.lastRenewal >= this.leaseMs) for (const h of entries) this.lose(h);
    }
  }

  private lose(h: HeldJob): void {
    h.lost = true;
    h.abort.abort(new Error(`Worker ${this.owner} lost its claim on session "${h.job.sessionId}" (another worker took it over).`));
  }
}

function positiveInteger(name: string, value: number): number {
  if (!Number.isInteger(value) || value < 1)
    throw new ConfigurationError(`Worker ${name} must be a positive integer, got ${String(value)}.`);
  return value;
}
