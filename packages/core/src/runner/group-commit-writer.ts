import type { AgentEvent } from '../events/agent-event.js';
import type { SessionKey } from '../sessions/session.js';
import type { SessionStore } from '../sessions/session-store.js';

/**
 * Whether the run may go on before this event is durable: a tool's result (a `tool` message, no
 * interrupt). What follows one is another finished tool's result or the next model call, never a
 * side effect, so results that finish together are stored together. Anything else — an assistant
 * message whose tool calls are about to run, an interrupt, the end of the run — waits until
 * everything before it is durable.
 */
export function mayOvertake(event: AgentEvent): boolean {
  return event.message?.role === 'tool' && !event.actions?.interrupt;
}

/**
 * Stores a run's events in order with group commit: while one append is in flight, the events
 * that arrive are queued and go in the next append together (one `appendEvents` call — for the
 * file store one write and one fdatasync — for all of them). `onDurable` sees each event once
 * its append succeeded, in order. After a failed append nothing more is written: every later
 * `write` and `drain` fails with the same error.
 */
/**
 * An append slower than this (a disk flush, a network round trip) is worth gathering for: a tool
 * result then waits for the rest of the event-loop turn, so results of tools that finish in the
 * same turn share one append. Faster stores (in memory) never wait.
 */
const GATHER_ABOVE_MS = 0.2;

export class GroupCommitWriter {
  private queue: AgentEvent[] = [];
  private slowStore = false;
  private inFlight: Promise<void> | undefined;
  private failure: { error: unknown } | undefined;

  constructor(
    private readonly store: SessionStore,
    private readonly key: SessionKey,
    private version: number,
    private readonly onDurable: (event: AgentEvent, version: number) => void,
  ) {}

  /**
   * Queues `event`; the promise settles once it and everything queued before it is durable,
   * or rejects with the append's failure. (It is the current flush's promise: no allocation per
   * event, so the in-memory path costs what a direct append did.)
   */
  write(event: AgentEvent, gather = false): Promise<void> {
    if (this.failure) return Promise.reject(this.failure.error);
    this.queue.push(event);
    if (!this.inFlight) {
      const flush = gather && this.slowStore ? new Promise((r) => setImmediate(r)).then(() => this.flush()) : this.flush();
      flush.catch(() => undefined); // a result nobody awaits is reported by the next write or drain
      this.inFlight = flush;
    }
    return this.inFlight;
  }

  /** Settles once every queued event is durable; rejects with the failure when one was not. */
  drain(): Promise<void> | undefined {
    if (this.failure) return Promise.reject(this.failure.error);
    return this.inFlight;
  }

  private async flush(): Promise<void> {
    try {
      while (this.queue.length) {
        const batch = this.queue;
        this.queue = [];
        const from = this.version;
        const started = performance.now();
        const { version } = await this.store.appendEvents(this.key, batch, { expectedVersion: from });
        this.slowStore = performance.now() - started > GATHER_ABOVE_MS;
        this.version = version;
        for (let i = 0; i < batch.length; i++) this.onDurable(batch[i]!, from + i + 1);
      }
    } catch (error) {
      this.failure = { error };
      this.queue = [];
      throw error;
    } finally {
      this.inFlight = undefined;
    }
  }
}
