import type { AgentEvent } from '../events/agent-event.js';
import type { SessionStore } from '../sessions/session-store.js';
import type { RunResult } from '../events/run-result.js';

/** What `run.abort()` takes besides a bare reason: `compensate: true` undoes the run's finished calls (`tool({ compensate })`). */
export interface AbortOptions {
  readonly compensate?: boolean;
  readonly reason?: unknown;
}

/** How the runner reaches a started run: whether its abort asked for compensation, and aborting it. */
export interface RunControl {
  readonly compensate: () => boolean;
  readonly abort: (options?: AbortOptions) => void;
}

/** What the runner gives a `Run` to start it: where events go, the signal that cancels it, and its control. */
export type RunStart = (emit: (event: AgentEvent) => void, signal: AbortSignal, control: RunControl) => Promise<RunResult>;

/** `{ compensate }` (with at most a `reason` beside it) is options; anything else passed to `abort` is the reason. */
function abortOptionsOf(value: unknown): AbortOptions | undefined {
  if (!value || typeof value !== 'object' || Object.getPrototypeOf(value) !== Object.prototype) return undefined;
  const keys = Object.keys(value);
  return keys.includes('compensate') && keys.every((k) => k === 'compensate' || k === 'reason') ? (value as AbortOptions) : undefined;
}

/** The session a run belongs to, known as soon as the run is created. */
export interface RunSession {
  readonly sessionStore: SessionStore;
  readonly appName: string;
  readonly userId: string;
  readonly sessionId: string;
}

/** The warning a failed run nobody observed emits (`process.on('warning')` sees its `name`). */
export const UNOBSERVED_RUN_FAILURE = 'ReplanUnobservedRunFailure';

const DONE: IteratorReturnResult<undefined> = { value: undefined, done: true };

/**
 * A run of an agent, returned by `runner.run()` and `runner.resume()`. It **starts when created**:
 * nothing has to read it for it to run and store its events.
 *
 * - `await run.result()` — how it ended (`RunResult`). Rejects only when the run could not start
 *   (`SessionNotFoundError`, `ResumeError`, `SessionBusyError`, …); an unread run that
 *   could not start does not crash the process with an unhandled rejection.
 * - `for await (const event of run)` — the invocation's events in order (partial streaming
 *   events included), from its first event: the run keeps every event it emitted, so iterating
 *   late, after `result()`, or a second time replays them all from the start and then follows the
 *   run live. Iterating a run that could not start throws its error.
 * - `break` (or `return`) in `for await` stops listening only: the run goes on and stores its
 *   events; `result()` still tells how it ended.
 * - `run.abort(reason?)` — cancels promptly, like the `signal` option: model calls and tools are
 *   stopped, the run ends `aborted`, and the session stays resumable with `runner.resume()`.
 * - `run.abort({ compensate: true, reason? })` — cancels for good: after stopping, the run's finished
 *   calls of tools with `compensate` are undone in reverse order of completion (each a stored tool
 *   call `<callId>:compensate`); the run ends `aborted` with `RunResult.compensation`, or `failed`
 *   with a `CompensationError`, and its invocation is closed (`resume` runs nothing, except to finish
 *   a compensation a crash interrupted).
 * - `run.sessionId` (with `appName`, `userId` and `sessionStore`) — its session, known at once
 *   (e.g. for `toUIMessageStream(run)`).
 * - A run that fails (status `failed`, or could not start) while nobody called `result()` or
 *   iterated it is reported once, as Node reports an unhandled rejection: a process warning
 *   (`ReplanUnobservedRunFailure`) naming the session and the error.
 *
 * The events stay in memory as long as the `Run` is referenced.
 */
export class Run implements AsyncIterable<AgentEvent> {
  private readonly events: AgentEvent[] = [];
  private readonly controller = new AbortController();
  private readonly promise: Promise<RunResult>;
  private ended = false;
  private failure: { readonly error: unknown } | undefined;
  private waiters: (() => void)[] = [];
  private observed = false;
  private compensate = false;
  readonly sessionStore: SessionStore;
  readonly appName: string;
  readonly userId: string;
  /** The run's session: the one given, or the id the runner made for a new one. */
  readonly sessionId: string;

  /** Built by the `Runner`; `signal` is the caller's. @internal */
  constructor(start: RunStart, session: RunSession, signal?: AbortSignal) {
    this.sessionStore = session.sessionStore;
    this.appName = session.appName;
    this.userId = session.userId;
    this.sessionId = session.sessionId;
    const forward = () => this.controller.abort(signal?.reason);
    if (signal?.aborted) forward();
    else signal?.addEventListener('abort', forward, { once: true });
    this.promise = start(
      (event) => {
        this.events.push(event);
        this.wake();
      },
      this.controller.signal,
      { compensate: () => this.compensate, abort: (options) => this.abort(options ?? {}) },
    );
    // Handled here, so a run nobody reads that fails to start is no unhandled rejection.
    this.promise.then(
      (result) => {
        this.settle(undefined);
        if (result.status === 'failed') this.reportUnobserved(result.error ?? new Error('the run failed'));
      },
      (error: unknown) => {
        this.settle({ error });
        this.reportUnobserved(error);
      },
    );
    // A long-lived caller signal must not keep every finished run alive.
    const release = () => signal?.removeEventListener('abort', forward);
    if (signal) this.promise.then(release, release);
  }

  /** How the run ended; rejects only when it could not start. */
  result(): Promise<RunResult> {
    this.observed = true;
    return this.promise;
  }

  /**
   * Cancels the run (a no-op once it ended); it ends `aborted` and the session stays resumable.
   * With `{ compensate: true }` its finished compensable calls are undone first and the run is
   * closed for good (see the class notes); `{ compensate, reason }` is read as options, any other
   * value as the reason.
   */
  abort(reason?: unknown): void;
  abort(options: AbortOptions): void;
  abort(reasonOrOptions?: unknown): void {
    const options = abortOptionsOf(reasonOrOptions);
    if (options?.compensate && !this.ended) this.compensate = true;
    this.controller.abort(options ? options.reason : reasonOrOptions);
  }

  /** Every event of this run from the first, then live ones until it ends. Each iterator starts over. */
  [Symbol.asyncIterator](): AsyncIterator<AgentEvent> {
    this.observed = true;
    let index = 0;
    let stopped = false;
    return {
      next: async (): Promise<IteratorResult<AgentEvent>> => {
        for (;;) {
          if (stopped) return DONE;
          if (index < this.events.length) return { value: this.events[index++] as AgentEvent, done: false };
          if (this.failure) throw this.failure.error;
          if (this.ended) return DONE;
          await new Promise<void>((resolve) => this.waiters.push(resolve));
        }
      },
      // `break` in `for await`: this iterator stops; the run does not.
      return: async (): Promise<IteratorResult<AgentEvent>> => {
        stopped = true;
        return DONE;
      },
    };
  }

  /**
   * A failure nobody looked at would vanish (no log, exit code 0): warn once, after the current
   * task, so a caller that reads the result right after the run ends is not warned.
   */
  private reportUnobserved(error: unknown): void {
    if (this.observed) return;
    setImmediate(() => {
      if (this.observed) return;
      const why = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
      process.emitWarning(
        `A run of app "${this.appName}", user "${this.userId}", session "${this.sessionId}" failed and nothing read its result: ${why}. ` +
          'Await run.result() (or iterate the run) to handle it.',
        { type: UNOBSERVED_RUN_FAILURE, ...(error instanceof Error ? { detail: error.stack ?? '' } : {}) },
      );
    });
  }

  private settle(failure: { readonly error: unknown } | undefined): void {
    this.ended = true;
    this.failure = failure;
    this.wake();
  }

  private wake(): void {
    if (!this.waiters.length) return;
    const waiters = this.waiters;
    this.waiters = [];
    for (const resolve of waiters) resolve();
  }
}
