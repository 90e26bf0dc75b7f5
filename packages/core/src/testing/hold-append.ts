import type { AgentEvent } from '../events/agent-event.js';
import type { SessionStore } from '../sessions/session-store.js';

/** A store whose chosen append is written, then held before it answers: see `holdAppend`. */
export interface HeldAppend {
  /**
   * The store to give the run: a store object of its own over the same sessions (a `Runner`'s
   * in-process claim is per store object, so runners on two handles meet only at the store, as
   * two workers do).
   */
  readonly store: SessionStore;
  /** Settles once the held append is written by the store; the run still waits for its answer. */
  readonly written: Promise<void>;
  /** Lets the held append (and renewals stalled with it) answer the run. */
  release(): void;
}

export interface HoldAppendOptions {
  /** Which append to hold: the first whose events match (default: the first that stores a model's tool call). */
  readonly when?: (events: readonly AgentEvent[]) => boolean;
  /**
   * Lease renewals wait too once the append is held (a paused or cut-off worker), so the store
   * lets the run's lease expire meanwhile. Default false.
   */
  readonly stallRenewals?: boolean;
}

/** Whether these events store a model's tool call (an assistant message with a `tool_call` block). */
const storesToolCall = (events: readonly AgentEvent[]) =>
  events.some((e) => e.message?.role === 'assistant' && e.message.content.some((b) => b.type === 'tool_call'));

/**
 * Fault injection for tests: wraps `store` so that one append — by default the first that stores
 * a model's tool call — is written by the store, then held until `release()`: what a run sees of
 * an append still in flight. Abort the run, or let its lease be taken over, between `written` and
 * `release()` to check what it does next (a stopped run never starts the stored call).
 */
export function holdAppend(store: SessionStore, options: HoldAppendOptions = {}): HeldAppend {
  const when = options.when ?? storesToolCall;
  let release: () => void = () => undefined;
  const released = new Promise<void>((resolve) => (release = resolve));
  let markWritten: () => void = () => undefined;
  const written = new Promise<void>((resolve) => (markWritten = resolve));
  let held = false;
  const handle: SessionStore = {
    create: (session, events) => store.create(session, events),
    get: (key) => store.get(key),
    list: (input) => store.list(input),
    delete: (key) => store.delete(key),
    appendEvents: async (key, events, appendOptions) => {
      const hold = !held && when(events);
      if (hold) held = true;
      const stored = await store.appendEvents(key, events, appendOptions);
      if (hold) {
        markWritten();
        await released;
      }
      return stored;
    },
  };
  const { acquireLease, renewLease, releaseLease, leaseHolder } = store;
  if (acquireLease) handle.acquireLease = acquireLease.bind(store);
  if (renewLease)
    handle.renewLease = async (key, lease, ttlMs) => {
      if (options.stallRenewals && held) await released;
      return renewLease.call(store, key, lease, ttlMs);
    };
  if (releaseLease) handle.releaseLease = releaseLease.bind(store);
  if (leaseHolder) handle.leaseHolder = leaseHolder.bind(store);
  return { store: handle, written, release };
}
