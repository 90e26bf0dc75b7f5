import { hostname } from 'node:os';
import { randomUUID } from 'node:crypto';
import { LeaseLostError } from '../errors/session-errors.js';
import type { SessionKey } from './session.js';
import type { SessionLease } from './session-lease.js';
import type { AppendOptions, SessionStore } from './session-store.js';

/** This host and process, read once (a `Runner` per request must not cost a system call each). */
let processPrefix: string | undefined;

/** A default lease owner id: this host, this process, and a random part per `Runner`. */
export function defaultLeaseOwner(): string {
  processPrefix ??= `${hostname()}:${process.pid}`;
  return `${processPrefix}:${randomUUID().slice(0, 8)}`;
}

/** What a run's driver needs to know about its lease: a signal that fires when it is lost. */
export interface RunFence {
  /** Who holds the lease; the run's child sessions (agentTool) take theirs as the same owner. */
  readonly owner: string;
  /** How long the lease lasts unless renewed, in ms (a child session's lease lasts as long). */
  readonly ttlMs: number;
  /** Aborted with the `LeaseLostError` once the lease is lost. */
  readonly signal: AbortSignal;
  /** The loss, once lost. */
  readonly lost: LeaseLostError | undefined;
  /** Marks the lease lost (the store refused an append): aborts the run, stops the heartbeat. */
  lose(error: LeaseLostError): void;
  /**
   * Marks the lease lost when it has run out by this process's clock (renewals stalled or failed
   * that long), without waiting for the next heartbeat. Asked right before a tool starts.
   */
  check(): void;
  /** The append options with the lease; throws the loss (writing nothing) once lost. */
  appendOptions(options: AppendOptions): AppendOptions;
}

/**
 * One run's lease on its session: acquired before the run stores anything, renewed by a timer
 * (every third of the lease, unref'd so it never keeps a process alive), passed on every append
 * (`fenceAppends`), released when the run ends. When the store refuses a renewal or an append
 * (`LeaseLostError`), or a renewal keeps failing until the lease has expired by this process's
 * clock, the lease is lost: `signal` aborts the run and nothing more is appended.
 */
export class RunLease implements RunFence {
  private readonly controller = new AbortController();
  private heartbeat: ReturnType<typeof setInterval> | undefined;
  private renewing = false;
  /** When the lease runs out by this process's clock: last successful request time + ttl (conservative). */
  private deadline = 0;
  lost: LeaseLostError | undefined;
  current: SessionLease | undefined;

  constructor(
    private readonly store: SessionStore,
    private readonly key: SessionKey,
    readonly owner: string,
    readonly ttlMs: number,
  ) {}

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** Whether the store supports leases at all (else the run relies on versions alone). */
  static supported(store: SessionStore): boolean {
    return typeof store.acquireLease === 'function';
  }

  /** Takes the lease (`SessionBusyError` when another owner's is live) and starts the heartbeat. */
  async acquire(): Promise<void> {
    const asked = Date.now();
    this.current = await this.store.acquireLease!(this.key, { owner: this.owner, ttlMs: this.ttlMs });
    this.deadline = asked + this.ttlMs;
    this.heartbeat = setInterval(() => void this.beat(), Math.max(1, Math.floor(this.ttlMs / 3)));
    this.heartbeat.unref?.();
  }

  /** The append options with this lease; throws the loss (writing nothing) once lost. */
  appendOptions(options: AppendOptions): AppendOptions {
    if (this.lost) throw this.lost;
    const lease = this.current;
    // Built field by field: an object spread here cost ~1.5 µs per append (bench/react-overhead.ts).
    // AppendOptions has these two fields; a new one must be copied here too.
    return lease ? { expectedVersion: options.expectedVersion, lease } : options;
  }

  /** Marks the lease lost: stops the heartbeat and aborts the run with `error`. */
  lose(error: LeaseLostError): void {
    if (this.lost) return;
    this.lost = error;
    this.stopHeartbeat();
    this.controller.abort(error);
  }

  /** Marks the lease lost once it has run out by this process's clock (see `RunFence.check`). */
  check(): void {
    const lease = this.current;
    // Paused (SIGSTOP, a long GC) or unable to renew past the expiry: someone may own it now.
    if (lease && !this.lost && Date.now() >= this.deadline) this.lose(new LeaseLostError(this.key.id, lease.token));
  }

  /** Stops the heartbeat and releases the lease (unless lost). A failed release is left to expiry. */
  async end(): Promise<void> {
    this.stopHeartbeat();
    const lease = this.current;
    if (!lease || this.lost || !this.store.releaseLease) return;
    try {
      await this.store.releaseLease(this.key, lease);
    } catch {
      // The lease expires by itself; the run's outcome is already stored.
    }
  }

  private async beat(): Promise<void> {
    const lease = this.current;
    if (!lease || this.lost) return;
    this.check();
    if (this.lost || this.renewing || !this.store.renewLease) return;
    this.renewing = true;
    const asked = Date.now();
    try {
      const renewed = await this.store.renewLease(this.key, lease, this.ttlMs);
      if (!this.lost) {
        this.current = renewed;
        this.deadline = asked + this.ttlMs;
      }
    } catch (error) {
      if (error instanceof LeaseLostError) this.lose(error);
      else if (Date.now() >= this.deadline) this.lose(new LeaseLostError(this.key.id, lease.token, undefined, undefined, { cause: error }));
      // Otherwise a passing store failure: the next beat tries again before the lease runs out.
    } finally {
      this.renewing = false;
    }
  }

  private stopHeartbeat(): void {
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.heartbeat = undefined;
  }
}

/**
 * The store as a leased run sees it: every append carries the lease, and after a loss no append
 * reaches the store. (A refused append is reported to `RunLease.lose` by the run's driver: no
 * extra promise per append here, which the ReAct overhead bench would see.)
 */
export function fenceAppends(store: SessionStore, lease: RunFence): SessionStore {
  return {
    create: (session, events) => store.create(session, events),
    get: (key) => store.get(key),
    list: (input) => store.list(input),
    delete: (key) => store.delete(key),
    appendEvents: (key, events, options) => {
      try {
        return store.appendEvents(key, events, lease.appendOptions(options));
      } catch (error) {
        return Promise.reject(error);
      }
    },
  };
}
