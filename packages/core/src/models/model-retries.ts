import { abortErrorOf } from '../errors/abort.js';
import { ModelError } from '../errors/model-error.js';

/** A retry about to be made, as `onRetry` is told before its wait. */
export interface ModelRetry {
  /** The retry about to be made: 1 for the first. */
  readonly attempt: number;
  /** The most retries this kind of failure gets. */
  readonly maxRetries: number;
  /** The wait before the retry, ms. */
  readonly delayMs: number;
  /** The failure of the attempt that just failed (its `model`, `url`, `kind`, `providerMessage`). */
  readonly error: ModelError;
}

/** How `retryModelCall` sends and retries one call. */
export interface RetryModelCallOptions {
  /** Retries of a retryable failure at most. */
  readonly maxRetries: number;
  /** Told of every retry before its wait (default: one `console.warn` line, so retries are never silent). */
  readonly onRetry?: ((retry: ModelRetry) => void) | undefined;
  /** The caller's signal: an abort ends the wait at once and is thrown as the run's abort error. */
  readonly signal?: AbortSignal | undefined;
  /**
   * The failure of attempt `attempt` (1-based) as a `ModelError` naming the model and the attempts;
   * anything else it returns (an abort, a bug) is thrown as it is, without a retry.
   */
  readonly toError: (raw: unknown, attempt: number) => unknown;
  /** Fewer retries for some failures (e.g. a connection that could not be made); default `maxRetries`. */
  readonly retriesFor?: (error: ModelError) => number;
  /** Whether to retry, when the server said so otherwise than in `error.retryable` (e.g. `x-should-retry`). */
  readonly shouldRetry?: (error: ModelError, raw: unknown) => boolean;
}

/** The longest `retryAfterMs` honoured; a longer wait is not made (the error is thrown). */
const MAX_RETRY_AFTER_MS = 60_000;

/** The default `onRetry`: one warning line naming the model, the server, the failure and the wait. */
export const warnRetry = (retry: ModelRetry): void => {
  const { error } = retry;
  const who = `model "${error.model ?? 'unknown'}"${error.url ? ` at ${error.url}` : ''}`;
  console.warn(
    `replan: ${who} failed (${error.providerMessage}); retry ${retry.attempt}/${retry.maxRetries} in ${(retry.delayMs / 1000).toFixed(1)}s`,
  );
};

/**
 * Sends a model call and retries it while its `ModelError` is `retryable`: after the provider's
 * `retryAfterMs` when it gave one (up to a minute; a longer one is thrown), else after a backoff of
 * 0.5 s, 1 s, 2 s … 8 s with jitter. The wait ends at once when `signal` fires. The one retry loop of
 * every model replan ships; a model of your own may use it too.
 */
export async function retryModelCall<T>(send: () => PromiseLike<T>, options: RetryModelCallOptions): Promise<T> {
  const onRetry = options.onRetry ?? warnRetry;
  for (let attempt = 1; ; attempt++) {
    try {
      return await send();
    } catch (raw) {
      if (options.signal?.aborted) throw raw;
      const error = options.toError(raw, attempt);
      if (!(error instanceof ModelError)) throw error;
      const budget = options.retriesFor ? Math.min(options.retriesFor(error), options.maxRetries) : options.maxRetries;
      const retry = options.shouldRetry ? options.shouldRetry(error, raw) : error.retryable;
      const delayMs = attempt <= budget && retry ? retryDelayMs(error, attempt) : undefined;
      if (delayMs === undefined) throw error;
      onRetry({ attempt, maxRetries: budget, delayMs, error });
      await abortableDelay(delayMs, options.signal);
    }
  }
}

function retryDelayMs(error: ModelError, attempt: number): number | undefined {
  const after = error.retryAfterMs;
  if (after !== undefined) return after <= MAX_RETRY_AFTER_MS ? Math.max(0, after) : undefined;
  const base = Math.min(500 * 2 ** (attempt - 1), 8000);
  return Math.round(base * (1 - Math.random() * 0.25));
}

/**
 * Waits `ms`, or rejects with the run's abort error as soon as `signal` fires. Timers, not
 * `node:timers/promises`: core keeps to web-standard globals.
 */
function abortableDelay(ms: number, signal: AbortSignal | undefined): Promise<void> {
  if (signal?.aborted) return Promise.reject(abortErrorOf(signal));
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortErrorOf(signal as AbortSignal));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
