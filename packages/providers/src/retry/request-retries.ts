import { abortErrorOf } from '@replan/core/agent-kit';
import { APIError } from 'openai';
import { retryAfterOf } from '../errors/capturing-fetch.js';
import { isAbortError, toProviderError } from '../errors/map-error.js';
import { ProviderConnectionError, ProviderError, RateLimitError } from '../errors/provider-errors.js';

/** Retries of retryable failures (429 rate limits, 408/409/5xx, timeouts) by default. */
export const DEFAULT_MAX_RETRIES = 2;
/**
 * Retries of a connection that could not be made (refused, DNS, reset) by default: one, after
 * about half a second. A server that is not running rarely starts within the backoff, so a wrong
 * `baseURL` fails in well under a second instead of after many silent seconds.
 */
export const DEFAULT_CONNECTION_RETRIES = 1;
/** The longest `retry-after` honoured; a longer one is not waited for (the error is thrown). */
const MAX_RETRY_AFTER_MS = 60_000;

/** A retry about to be made, as `onRetry` is told before its wait. */
export interface ProviderRetry {
  /** The retry about to be made: 1 for the first. */
  readonly attempt: number;
  /** The most retries this kind of failure gets (`connectionRetries` or `maxRetries`). */
  readonly maxRetries: number;
  /** The wait before the retry, ms. */
  readonly delayMs: number;
  /** The typed failure of the attempt that just failed. */
  readonly error: ProviderError;
  readonly model: string;
  readonly baseURL: string;
}

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
  readonly onRetry?: (retry: ProviderRetry) => void;
}

/** The default `onRetry`: one warning line naming the model, the server, the failure and the wait. */
export const warnRetry = (retry: ProviderRetry): void =>
  console.warn(
    `replan: model "${retry.model}" at ${retry.baseURL} failed (${retry.error.providerMessage}); retry ${retry.attempt}/${retry.maxRetries} in ${(retry.delayMs / 1000).toFixed(1)}s`,
  );

export interface RequestContext {
  readonly model: string;
  readonly baseURL: string;
  readonly signal?: AbortSignal | undefined;
  /** Whether the client is the caller's own (its SDK retries are its business: ours default to 0). */
  readonly ownClient: boolean;
}

/**
 * Sends a request (`send`, one SDK call whose own retries are off) and retries it as the options
 * say, telling `onRetry` before each wait. Failures come out typed (`ProviderError`), naming the
 * model, the base URL and how many attempts were made; aborts come out as they are.
 */
export async function withRetries<T>(send: () => Promise<T>, options: RetryOptions, context: RequestContext): Promise<T> {
  const maxRetries = options.maxRetries ?? (context.ownClient ? 0 : DEFAULT_MAX_RETRIES);
  const connectionRetries = Math.min(options.connectionRetries ?? DEFAULT_CONNECTION_RETRIES, maxRetries);
  const onRetry = options.onRetry ?? warnRetry;
  for (let attempt = 1; ; attempt++) {
    try {
      return await send();
    } catch (raw) {
      if (isAbortError(raw) || context.signal?.aborted) throw raw;
      const error = toProviderError(raw, { model: context.model, baseURL: context.baseURL, attempts: attempt });
      if (!(error instanceof ProviderError)) throw error;
      const budget = error instanceof ProviderConnectionError ? connectionRetries : maxRetries;
      const delayMs = attempt <= budget && shouldRetry(error, raw) ? retryDelayMs(error, attempt) : undefined;
      if (delayMs === undefined) throw error;
      onRetry({ attempt, maxRetries: budget, delayMs, error, model: context.model, baseURL: context.baseURL });
      await wait(delayMs, context.signal);
    }
  }
}

/** The server's `x-should-retry` wins; else the error's own `retryable`. */
function shouldRetry(error: ProviderError, raw: unknown): boolean {
  const header = raw instanceof APIError && raw.headers instanceof Headers ? raw.headers.get('x-should-retry') : null;
  if (header === 'true') return true;
  if (header === 'false') return false;
  return error.retryable;
}

/** The server's `retry-after` when it gives one (up to a minute), else backoff 0.5 s, 1 s, 2 s … 8 s with jitter. */
function retryDelayMs(error: ProviderError, attempt: number): number | undefined {
  const after = error instanceof RateLimitError ? error.retryAfter : retryAfterOfCause(error);
  if (after !== undefined) return after * 1000 <= MAX_RETRY_AFTER_MS ? Math.max(0, after * 1000) : undefined;
  const base = Math.min(500 * 2 ** (attempt - 1), 8000);
  return Math.round(base * (1 - Math.random() * 0.25));
}

function retryAfterOfCause(error: ProviderError): number | undefined {
  const cause = error.cause;
  return cause instanceof APIError && cause.headers instanceof Headers ? retryAfterOf(cause.headers) : undefined;
}

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
