import type { ModelRetry, ModelError } from '@replan/core';
import { retryModelCall } from '@replan/core/agent-kit';
import { APIError } from 'openai';
import { toModelError } from '../errors/map-error.js';

/** Retries of retryable failures (429 rate limits, 408/409/5xx, timeouts) by default. */
export const DEFAULT_MAX_RETRIES = 2;
/**
 * Retries of a connection that could not be made (refused, DNS, reset) by default: one, after
 * about half a second. A server that is not running rarely starts within the backoff, so a wrong
 * `baseURL` fails in well under a second instead of after many silent seconds.
 */
export const DEFAULT_CONNECTION_RETRIES = 1;

/** What to do about retries of a request (the options of a model). */
export interface RetryOptions {
  /** Retries of retryable failures: 429 rate limits, 408/409/5xx, timeouts (default 2; 0 with your own `client`). */
  readonly maxRetries?: number;
  /** Retries of a connection that could not be made: refused, DNS failure, reset (default 1; at most `maxRetries`). */
  readonly connectionRetries?: number;
  /**
   * Told of every retry before its wait. Default: one `console.warn` line per retry, so retries are
   * never silent; pass your logger here, or `() => {}` to mute them.
   */
  readonly onRetry?: (retry: ModelRetry) => void;
}

export interface RequestContext {
  readonly model: string;
  readonly baseURL: string;
  readonly signal?: AbortSignal | undefined;
  /** Whether the client is the caller's own (its SDK retries are its business: ours default to 0). */
  readonly ownClient: boolean;
}

/**
 * Sends a request (`send`, one SDK call whose own retries are off) and retries it as the options
 * say, through core's `retryModelCall`. Failures come out as `ModelError`s naming the model, the
 * base URL and how many attempts were made; aborts come out as they are.
 */
export function withRetries<T>(send: () => Promise<T>, options: RetryOptions, context: RequestContext): Promise<T> {
  const maxRetries = options.maxRetries ?? (context.ownClient ? 0 : DEFAULT_MAX_RETRIES);
  const connectionRetries = options.connectionRetries ?? DEFAULT_CONNECTION_RETRIES;
  return retryModelCall(send, {
    maxRetries,
    onRetry: options.onRetry,
    signal: context.signal,
    toError: (raw, attempt) => toModelError(raw, { model: context.model, baseURL: context.baseURL, attempts: attempt }),
    retriesFor: (error) => (error.kind === 'connection' ? connectionRetries : maxRetries),
    shouldRetry,
  });
}

/** The server's `x-should-retry` wins; else the error's own `retryable`. */
function shouldRetry(error: ModelError, raw: unknown): boolean {
  const header = raw instanceof APIError && raw.headers instanceof Headers ? raw.headers.get('x-should-retry') : null;
  if (header === 'true') return true;
  if (header === 'false') return false;
  return error.retryable;
}
