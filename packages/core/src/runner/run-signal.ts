import { BudgetExceededError, RunAbortedError } from '../errors/run-errors.js';
import type { RunFence } from '../sessions/run-lease.js';

/** The signal a run's agents get, and how to stop listening once the run ended. */
export interface RunSignal {
  readonly signal: AbortSignal;
  readonly dispose: () => void;
}

/** Aborts on the caller's signal, when `timeoutMs` runs out, or when the run's lease is lost. */
export function runSignal(signal: AbortSignal | undefined, timeoutMs: number | undefined, fence: RunFence | undefined): RunSignal {
  const controller = new AbortController();
  const onAbort = () => controller.abort(new RunAbortedError(signal?.reason));
  if (signal?.aborted) onAbort();
  else signal?.addEventListener('abort', onAbort, { once: true });
  const onLost = () => controller.abort(fence?.signal.reason);
  fence?.signal.addEventListener('abort', onLost, { once: true });
  const started = Date.now();
  const timer =
    timeoutMs === undefined
      ? undefined
      : setTimeout(() => controller.abort(new BudgetExceededError('timeoutMs', timeoutMs, Date.now() - started)), timeoutMs);
  return {
    signal: controller.signal,
    dispose: () => {
      if (timer) clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      fence?.signal.removeEventListener('abort', onLost);
    },
  };
}
