import { abortErrorOf } from '@replan/core/agent-kit';
import { AiSdkModelError, RateLimitError } from './model-errors.js';
import { isAbortError, toModelError } from './map-error.js';

/** A retry about to be made, as `onRetry` is told before its wait. */
export interface AiSdkModelRetry {
  /** The retry about to be made: 1 for the first. */
  readonly attempt: number;
  readonly maxRetries: number;
  /** The wait before the retry, ms. */
  readonly delayMs: number;
  /** The typed failure of the attempt that just failed. */
  readonly error: AiSdkModelError;
  readonly model: string;
}

export interface RetryOptions {
  /** Retries of retryable failures: 429, 408, 5xx, overload, connection errors (default 2). */
  readonly maxRetries?: number;
  /** Told of every retry before its wait. Default: one `console.warn` line per retry, so retries are never silent. */
  readonly onRetry?: (retry: AiSdkModelRetry) => void;
}

export const DEFAULT_MAX_RETRIES = 2;
/** The longest `retry-after` honoured; a longer one is not waited for (the error is thrown). */
const MAX_RETRY_AFTER_MS = 60_000;

const warnRetry = (retry: AiSdkModelRetry): void =>
  console.warn(
    `replan: model "${retry.model}" failed (${retry.error.providerMessage}); retry ${retry.attempt}/${retry.maxRetries} in ${(retry.delayMs / 1000).toFixed(1)}s`,
  );

/**
 * Sends a call and retries it as the options say (the server's `retry-after` when it gives one,
 * else backoff 0.5 s, 1 s, 2 s …); failures come out typed, naming the model and the attempts.
 * Only the call itself is retried: a stream that fails midway has already shown its output.
 */
export async function withRetries<T>(
  send: () => PromiseLike<T>,
  options: RetryOptions,
  model: string,
  signal: AbortSignal | undefined,
): Promise<T> {
  const maxRetries = options.maxRetries ?? DEFAULT_MAX_RETRIES;
  const onRetry = options.onRetry ?? warnRetry;
  for (let attempt = 1; ; attempt++) {
    try {
      return await send();
    } catch (raw) {
      if (isAbortError(raw) || signal?.aborted) throw raw;
      const error = toModelError(raw, { model, attempts: attempt });
      if (!(error instanceof AiSdkModelError)) throw error;
      const delayMs = attempt <= maxRetries && error.retryable ? retryDelayMs(error, attempt) : undefined;
      if (delayMs === undefined) throw error;
      onRetry({ attempt, maxRetries, delayMs, error, model });
      await wait(delayMs, signal);
    }
  }
}

function retryDelayMs(error: AiSdkModelError, attempt: number): number | undefined {
  const after = error instanceof RateLimitError ? error.retryAfter : undefined;
  if (after !== undefined) return after * 1000 <= MAX_RETRY_AFTER_MS ? Math.max(0, after * 1000) : undefined;
  const base = Math.min(500 * 2 ** (attempt - 1), 8000);
  return Math.round(base * (1 - Math.random() * 0.25));
}

/**
 * Waits `ms`, or rejects with the run's abort error as soon as `signal` fires. Timers, not
 * `node:timers/promises`: the model mapping keeps to web-standard globals (the package's stream
 * helpers do use Node APIs, `node:crypto` and `node:fs`, and run on Node only).
 */
function wait(ms: number, signal: AbortSignal | undefined): Promise<void> {
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
