import { isContextLengthError } from '../errors/context-length-error.js';

/**
 * Why a failed model call may be answered by another model:
 * - `rate_limit`: HTTP 429, or a rate-limit or quota error (another provider has its own limits);
 * - `overload`: HTTP 503 or 529 (the provider is overloaded);
 * - `server`: any other 5xx;
 * - `timeout`: HTTP 408 or 504, or the request or stream timed out;
 * - `connection`: no connection could be made (refused, reset, DNS);
 * - `context_length`: the request does not fit (answered only by a model with a larger `contextWindow`).
 */
export type FallbackReason = 'rate_limit' | 'overload' | 'server' | 'timeout' | 'connection' | 'context_length';

/** Every reason: what `fallbackModel` falls back on by default. */
export const FALLBACK_REASONS: readonly FallbackReason[] = ['rate_limit', 'overload', 'server', 'timeout', 'connection', 'context_length'];

// Error classes of @replan/providers (and the AI SDK's) by name: core cannot import them.
const NAMED: Readonly<Record<string, FallbackReason>> = {
  RateLimitError: 'rate_limit',
  QuotaExceededError: 'rate_limit',
  TimeoutError: 'timeout',
  ProviderConnectionError: 'connection',
  APIConnectionError: 'connection',
  APIConnectionTimeoutError: 'timeout',
};
// Errors a second model cannot fix: the request itself is wrong, or the key is.
const NEVER = new Set(['InvalidRequestError', 'AuthenticationError', 'RequestTooLargeError', 'StrictSchemaError', 'ConfigurationError']);
const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EPIPE',
  'ETIMEDOUT',
]);

const fieldOf = (error: unknown, key: string): unknown =>
  typeof error === 'object' && error !== null ? (error as Record<string, unknown>)[key] : undefined;

/**
 * Why `error` may be answered by another model, or `undefined` when it may not (an invalid
 * request, an auth failure, an abort, a bug). Read from the error's HTTP `status` (or
 * `statusCode`), its class name and its cause chain, so errors of any model implementation
 * (`@replan/providers`, the AI SDK, a plain `fetch`) are recognised.
 */
export function fallbackReasonOf(error: unknown): FallbackReason | undefined {
  if (isContextLengthError(error)) return 'context_length';
  for (let e = error, depth = 0; e !== undefined && e !== null && depth < 8; e = fieldOf(e, 'cause'), depth++) {
    const name = fieldOf(e, 'name');
    if (typeof name === 'string') {
      if (name === 'AbortError' || NEVER.has(name)) return undefined;
      const named = NAMED[name];
      if (named) return named;
    }
    const status = fieldOf(e, 'status') ?? fieldOf(e, 'statusCode');
    if (typeof status === 'number') return statusReason(status);
    const code = fieldOf(e, 'code');
    if (typeof code === 'string' && (CONNECTION_CODES.has(code) || code.startsWith('UND_ERR_'))) return 'connection';
  }
  return undefined;
}

function statusReason(status: number): FallbackReason | undefined {
  if (status === 429 || status === 402) return 'rate_limit';
  if (status === 503 || status === 529) return 'overload';
  if (status === 408 || status === 504) return 'timeout';
  if (status >= 500 && status <= 599) return 'server';
  return undefined;
}
