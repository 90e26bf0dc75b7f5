import { setTimeout as sleep } from 'node:timers/promises';
import { abortErrorOf } from '../errors/abort.js';
import { type LeaseLostError, SessionBusyError } from '../errors/session-errors.js';
import type { SessionKey } from '../sessions/session.js';
import type { AppendOptions, SessionStore } from '../sessions/session-store.js';
import { type RunFence, RunLease } from '../sessions/run-lease.js';

/**
 * A child session's lease (an agent run as a tool): a lease of its own on the child session, taken
 * by the parent run's owner for as long, and bound to the parent run's lease both ways. A parent
 * that lost its lease appends nothing more to the child, and the child's run stops with it; a
 * child whose lease another run took over (it resumed the tree from the root) stops the parent's
 * run too, since that run now owns the whole tree.
 */
/** How much past a holder's expiry to try again (and the least wait between tries). */
const MARGIN_MS = 5;

export class ChildLease implements RunFence {
  private readonly own: RunLease;
  private readonly either = new AbortController();
  private readonly onParentLost = () => this.either.abort(this.parent.signal.reason);

  constructor(
    store: SessionStore,
    key: SessionKey,
    private readonly parent: RunFence,
  ) {
    this.own = new RunLease(store, key, parent.owner, parent.ttlMs);
    if (parent.signal.aborted) this.onParentLost();
    else parent.signal.addEventListener('abort', this.onParentLost, { once: true });
    // However the child's lease is lost (a refused append or renewal, or its expiry), the parent's run stops too.
    this.own.signal.addEventListener(
      'abort',
      () => {
        this.either.abort(this.own.signal.reason);
        parent.lose(this.own.signal.reason as LeaseLostError);
      },
      { once: true },
    );
  }

  /** Aborted once either lease is lost: the child's own, or the parent run's. */
  get signal(): AbortSignal {
    return this.either.signal;
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

  /**
   * Takes the child's lease and starts its heartbeat. This run holds the parent's lease, so another
   * owner's live lease on the child can only be a run of this tree that lost the parent (crashed,
   * or a zombie): its lease is waited out (it expires, or is released once that run sees its loss),
   * for at most twice the lease duration; then `SessionBusyError` names it.
   */
  async acquire(signal?: AbortSignal): Promise<void> {
    if (this.parent.lost) throw this.parent.lost;
    if (this.own.current) return; // held already: acquired once per child run
    const giveUp = Date.now() + 2 * this.ttlMs;
    for (;;) {
      try {
        await this.own.acquire();
        return;
      } catch (error) {
        if (!(error instanceof SessionBusyError) || error.expiresAt === undefined || Date.now() >= giveUp) throw error;
        // The store's clock may differ from this one: wait at least a little, never past the deadline.
        const wait = Math.min(Math.max(error.expiresAt - Date.now(), 0) + MARGIN_MS, giveUp - Date.now());
        try {
          await sleep(Math.max(wait, MARGIN_MS), undefined, signal ? { signal } : undefined);
        } catch {
          throw signal ? abortErrorOf(signal) : error;
        }
      }
    }
  }

  lose(error: LeaseLostError): void {
    this.own.lose(error);
  }

  /** Marks either lease lost once it ran out by this process's clock (the parent's, then the child's own). */
  check(): void {
    this.parent.check();
    this.own.check();
  }

  appendOptions(options: AppendOptions): AppendOptions {
    if (this.parent.lost) throw this.parent.lost;
    return this.own.appendOptions(options);
  }

  /** Stops the heartbeat and releases the child's lease (unless lost). */
  end(): Promise<void> {
    this.parent.signal.removeEventListener('abort', this.onParentLost); // a run may call many agent tools
    return this.own.end();
  }
}
