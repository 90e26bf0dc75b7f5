import type { Message } from '@replan/core';
import { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from 'openai';
import { capturedBodyOf, retryAfterOf } from './capturing-fetch.js';
import { classifyError } from './classify-error.js';
import { errorFacts, type ErrorFacts } from './error-body.js';
import {
  AuthenticationError,
  ContextLengthError,
  InvalidRequestError,
  ProviderConnectionError,
  ProviderError,
  QuotaExceededError,
  RateLimitError,
  RequestTooLargeError,
  TimeoutError,
  type ProviderErrorDetails,
} from './provider-errors.js';

export interface ErrorContext {
  readonly model?: string;
  /** The server the request went to. */
  readonly baseURL?: string;
  /** How many times the request was sent. */
  readonly attempts?: number;
  /** Output produced before a stream failed. */
  readonly partial?: Message;
}

/** True for an abort the caller asked for (left as it is: the caller knows why it aborted). */
export function isAbortError(error: unknown): boolean {
  return (
    error instanceof APIUserAbortError ||
    (error instanceof Error && (error.name === 'AbortError' || (error as { code?: unknown }).code === 'ABORT_ERR'))
  );
}

/**
 * Turns whatever the SDK (or a stream) threw into a typed `ProviderError` carrying the server's
 * real message. Aborts are returned unchanged.
 */
export function toProviderError(error: unknown, context: ErrorContext = {}): unknown {
  if (error instanceof ProviderError || isAbortError(error)) return error;
  if (error instanceof APIConnectionTimeoutError)
    return new TimeoutError({ providerMessage: error.message || 'request timed out', ...base(context, error) });
  if (error instanceof APIConnectionError) {
    return new ProviderConnectionError({ providerMessage: `${error.message}${connectionCause(error.cause)}`, ...base(context, error) });
  }
  if (error instanceof APIError) return fromApiError(error, context);
  if (error instanceof SyntaxError)
    return new ProviderError({ providerMessage: `the server sent invalid JSON: ${error.message}`, ...base(context, error) });
  const message = error instanceof Error ? error.message : String(error);
  return new ProviderError({ providerMessage: message, ...base(context, error) });
}

function fromApiError(error: APIError, context: ErrorContext): ProviderError {
  const headers = error.headers instanceof Headers ? error.headers : undefined;
  const captured = capturedBodyOf(headers);
  // A mid-stream `{"error": ...}` event has no status and its headers are the stream's.
  const body: unknown = captured ? captured.body : error.status === undefined ? { error: error.error } : error.error;
  const facts: ErrorFacts = errorFacts(body) ?? { message: error.message || 'unknown error' };
  const status = error.status ?? facts.status;
  const retryAfter = retryAfterOf(headers) ?? facts.retryAfter;
  const details: ProviderErrorDetails = {
    ...(status !== undefined ? { status } : {}),
    providerMessage: facts.message,
    ...(facts.code !== undefined ? { code: facts.code } : {}),
    ...(facts.type !== undefined ? { type: facts.type } : {}),
    ...(body !== undefined ? { body } : {}),
    ...(error.requestID ? { requestId: error.requestID } : {}),
    ...base(context, error),
  };
  return fromFacts(classifyError(status, facts, retryAfter), details, retryAfter);
}

/** Builds the typed error for a classified failure. */
export function fromFacts(kind: ReturnType<typeof classifyError>, details: ProviderErrorDetails, retryAfter?: number): ProviderError {
  switch (kind) {
    case 'rate_limit':
      return new RateLimitError({ ...details, ...(retryAfter !== undefined ? { retryAfter } : {}) });
    case 'quota':
      return new QuotaExceededError(details);
    case 'too_large':
      return new RequestTooLargeError(details);
    case 'context_length':
      return new ContextLengthError(details);
    case 'auth':
      return new AuthenticationError(details);
    case 'invalid':
      return new InvalidRequestError(details);
    case 'timeout':
      return new TimeoutError(details);
    default:
      return new ProviderError(details);
  }
}

/** Maps an error that arrived inside a successful response (a 200 body or a stream event). */
export function fromErrorPayload(payload: unknown, context: ErrorContext): ProviderError {
  const facts = errorFacts(payload) ?? { message: 'unknown error' };
  const details: ProviderErrorDetails = {
    ...(facts.status !== undefined ? { status: facts.status } : {}),
    providerMessage: facts.message,
    ...(facts.code !== undefined ? { code: facts.code } : {}),
    ...(facts.type !== undefined ? { type: facts.type } : {}),
    body: payload,
    ...base(context, undefined),
  };
  return fromFacts(classifyError(facts.status, facts, facts.retryAfter), details, facts.retryAfter);
}

/** `: fetch failed (connect ECONNREFUSED 127.0.0.1:1)`: the fetch error and the socket error under it. */
function connectionCause(cause: unknown): string {
  if (!(cause instanceof Error)) return '';
  const inner = cause.cause instanceof Error && cause.cause.message ? ` (${cause.cause.message})` : '';
  return `: ${cause.message}${inner}`;
}

function base(context: ErrorContext, cause: unknown) {
  return {
    ...(context.model !== undefined ? { model: context.model } : {}),
    ...(context.baseURL !== undefined ? { baseURL: context.baseURL } : {}),
    ...(context.attempts !== undefined ? { attempts: context.attempts } : {}),
    ...(context.partial !== undefined ? { partial: context.partial } : {}),
    ...(cause !== undefined ? { cause } : {}),
  };
}
