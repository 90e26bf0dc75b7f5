import { BudgetExceededError, RunAbortedError } from './run-errors.js';
import { LeaseLostError } from './session-errors.js';

/**
 * The error a run ends with when its signal fired: the budget error for timeouts, the
 * `LeaseLostError` when the run lost its lease, else `RunAbortedError`.
 */
export function abortErrorOf(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  if (reason instanceof BudgetExceededError || reason instanceof RunAbortedError || reason instanceof LeaseLostError) return reason;
  return new RunAbortedError(reason);
}

/**
 * The races waiting on each signal. One abort listener per signal rejects them all: adding and
 * removing a listener for every model and tool call cost more than the rest of the race.
 */
const racers = new WeakMap<AbortSignal, Set<(error: Error) => void>>();

function racersOf(signal: AbortSignal): Set<(error: Error) => void> {
  let waiting = racers.get(signal);
  if (!waiting) {
    const set = new Set<(error: Error) => void>();
    signal.addEventListener(
      'abort',
      () => {
        for (const reject of set) reject(abortErrorOf(signal));
        set.clear();
      },
      { once: true },
    );
    racers.set(signal, set);
    waiting = set;
  }
  return waiting;
}

/** Rejects as soon as `signal` fires, so a task that ignores its signal cannot hold a run. */
export function raceAbort<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(abortErrorOf(signal));
  const waiting = racersOf(signal);
  return new Promise<T>((resolve, reject) => {
    waiting.add(reject);
    promise.then(
      (v) => {
        waiting.delete(reject);
        resolve(v);
      },
      (e) => {
        waiting.delete(reject);
        reject(e);
      },
    );
  });
}

/**
 * The error the run ends with once it must stop: its signal fired (an abort, a timeout, a lost
 * lease), or — asked through `checkLease` — its lease ran out by this process's clock before the
 * heartbeat noticed (`checkLease` then marks it lost, which fires the signal). `undefined` while
 * the run goes on. A tool call asks right before it starts: a call stored by an append that was
 * still in flight when the run stopped must not start (a resume or the session's new owner runs it).
 */
export function stoppedError(signal: AbortSignal, checkLease: (() => void) | undefined): Error | undefined {
  checkLease?.();
  return signal.aborted ? abortErrorOf(signal) : undefined;
}

/** Throws `stoppedError(signal, checkLease)`, if any. */
export function throwIfStopped(signal: AbortSignal, checkLease: (() => void) | undefined): void {
  const error = stoppedError(signal, checkLease);
  if (error) throw error;
}
