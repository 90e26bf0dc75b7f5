import { BudgetExceededError, RunAbortedError } from '../errors/run-errors.js';
import { LeaseLostError } from '../errors/session-errors.js';

/**
 * The error a run ends with when its signal fired: the budget error for timeouts, the
 * `LeaseLostError` when the run lost its lease, else `RunAbortedError`.
 */
export function abortErrorOf(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  if (reason instanceof BudgetExceededError || reason instanceof RunAbortedError || reason instanceof LeaseLostError) return reason;
  return new RunAbortedError(reason);
}

/** Rejects as soon as `signal` fires, so a task that ignores its signal cannot hold a run. */
export function raceAbort<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(abortErrorOf(signal));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(abortErrorOf(signal));
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (e) => {
        signal.removeEventListener('abort', onAbort);
        reject(e);
      },
    );
  });
}
