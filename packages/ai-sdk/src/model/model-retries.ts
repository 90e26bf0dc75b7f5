import type { ModelRetry } from '@replan/core';
import { retryModelCall } from '@replan/core/agent-kit';
import { toModelError } from './map-error.js';

export interface RetryOptions {
  /** Retries of retryable failures: 429, 408, 5xx, overload, connection errors (default 2). */
  readonly maxRetries?: number;
  /** Told of every retry before its wait. Default: one `console.warn` line per retry, so retries are never silent. */
  readonly onRetry?: (retry: ModelRetry) => void;
}

export const DEFAULT_MAX_RETRIES = 2;

/**
 * Sends a call and retries it as the options say, through core's `retryModelCall` (the server's
 * `retry-after` when it gives one, else backoff 0.5 s, 1 s, 2 s …); failures come out as
 * `ModelError`s naming the model and the attempts. Only the call itself is retried: a stream that
 * fails midway has already shown its output.
 */
export function withRetries<T>(
  send: () => PromiseLike<T>,
  options: RetryOptions,
  model: string,
  signal: AbortSignal | undefined,
): Promise<T> {
  return retryModelCall(send, {
    maxRetries: options.maxRetries ?? DEFAULT_MAX_RETRIES,
    onRetry: options.onRetry,
    signal,
    toError: (raw, attempt) => toModelError(raw, { model, attempts: attempt }),
  });
}
