import type { LeaseLostError } from '../errors/session-errors.js';
import type { SessionKey } from '../sessions/session.js';
import type { AppendOptions, SessionStore } from '../sessions/session-store.js';
import { type RunFence, RunLease } from './run-lease.js';

/**
 * A child session's lease (an agent run as a tool): a lease of its own on the child session, taken
 * by the parent run's owner for as long, and bound to the parent run's lease both ways. A parent
 * that lost its lease appends nothing more to the child, and the child's run stops with it; a
 * child whose lease another run took over (it resumed the tree from the root) stops the parent's
 * run too, since that run now owns the whole tree.
 */
export class ChildLease implements RunFence {
  private readonly own: RunLease;
  readonly signal: AbortSignal;

  constructor(
    store: SessionStore,
    key: SessionKey,
    private readonly parent: RunFence,
  ) {
    this.own = new RunLease(store, key, parent.owner, parent.ttlMs);
    this.signal = AbortSignal.any([this.own.signal, parent.signal]);
    // However the child's lease is lost (a refused append or renewal, or its expiry), the parent's run stops too.
    this.own.signal.addEventListener('abort', () => parent.lose(this.own.signal.reason as LeaseLostError), { once: true });
  }

  get owner(): string {
    return this.parent.owner;
  }

  get ttlMs(): number {
    return this.parent.ttlMs;
  }

  get lost(): LeaseLostError | undefined {
    return this.parent.lost ?? this.own.lost;
  }

  /** Takes the child's lease (`SessionBusyError` when another owner's is live) and starts its heartbeat. */
  async acquire(): Promise<void> {
    if (this.parent.lost) throw this.parent.lost;
    if (this.own.current) return; // held already: acquired once per child run
    await this.own.acquire();
  }

  lose(error: LeaseLostError): void {
    this.own.lose(error);
  }

  appendOptions(options: AppendOptions): AppendOptions {
    if (this.parent.lost) throw this.parent.lost;
    return this.own.appendOptions(options);
  }

  /** Stops the heartbeat and releases the child's lease (unless lost). */
  end(): Promise<void> {
    return this.own.end();
  }
}
