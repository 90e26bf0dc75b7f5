import type { AgentEvent, Interrupt, RunStatus } from '../events/agent-event.js';
import { AsyncQueue } from '../agents/async-queue.js';
import { ConfigurationError } from '../errors/replan-error.js';
import type { Usage } from '../models/usage.js';
import type { UsageBreakdown } from './usage-breakdown.js';
import type { SessionTotals } from './session-totals.js';

/** How a run ended. `result()` always resolves; failures are in `status` and `error`. */
export interface RunResult {
  readonly status: RunStatus;
  /** The answer text (of the last `actions.final` of the invocation), when there is one. */
  readonly output: string | undefined;
  /** The structured answer, when the final agent produced one. */
  readonly structured?: unknown;
  readonly sessionId: string;
  readonly invocationId: string;
  /** Open interrupts to answer with `runner.resume({ values })` (status `interrupted`). */
  readonly interrupts: readonly Interrupt[];
  /** Tokens used by the model calls of this run (not of earlier runs of the session). */
  readonly usage: Usage;
  readonly modelCalls: number;
  /** What this run's model calls cost, priced by the runner's `prices` (and `limits.prices`); 0 when unpriced. */
  readonly cost: number;
  /** This run's model calls by agent path and by plan step (tokens, calls, cost, latency). */
  readonly breakdown: UsageBreakdown;
  /** Usage stored in the whole session: earlier runs and other processes included. */
  readonly session: SessionTotals;
  readonly error?: Error;
}

/**
 * A run in progress: iterate it for its events as they happen (partial streaming events
 * included), and/or await `result()`. It starts when first iterated or asked for its result;
 * iterate before awaiting `result()` to see every event. It can be iterated once.
 */
export class Run implements AsyncIterable<AgentEvent> {
  private readonly queue = new AsyncQueue<AgentEvent>();
  private promise: Promise<RunResult> | undefined;
  private iterating = false;

  constructor(private readonly start: (emit: (event: AgentEvent) => void) => Promise<RunResult>) {}

  result(): Promise<RunResult> {
    if (!this.promise) {
      this.promise = this.start((event) => {
        if (this.iterating) this.queue.push(event);
      });
      void this.promise.then(
        () => this.queue.close(),
        (error) => this.queue.fail(error),
      );
    }
    return this.promise;
  }

  [Symbol.asyncIterator](): AsyncIterator<AgentEvent> {
    if (this.iterating) throw new ConfigurationError('A Run can be iterated only once; keep the events you need as they arrive.');
    this.iterating = true;
    void this.result();
    return {
      next: async () => {
        const value = await this.queue.next();
        return value ? { value, done: false } : { value: undefined, done: true };
      },
    };
  }
}
