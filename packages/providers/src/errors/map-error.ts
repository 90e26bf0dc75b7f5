import { type Message, ModelError, type ModelErrorDetails } from '@replan/core';
import { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from 'openai';
import { capturedBodyOf, retryAfterOf } from './capturing-fetch.js';
import { classifyError } from './classify-error.js';
import { errorFacts, type ErrorFacts } from './error-body.js';

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

const CONNECTION_HINT = 'check baseURL / OPENAI_BASE_URL and that the server is running and reachable';

/**
 * Turns whatever the SDK (or a stream) threw into a `ModelError` carrying the server's real
 * message, its kind, status and retry delay, the SDK's error as `cause`. Aborts are returned unchanged.
 */
export function toModelError(error: unknown, context: ErrorContext = {}): unknown {
  if (error instanceof ModelError || isAbortError(error)) return error;
  if (error instanceof APIConnectionTimeoutError)
    return new ModelError({ kind: 'timeout', providerMessage: error.message || 'request timed out', ...base(context, error) });
  if (error instanceof APIConnectionError)
    return new ModelError({
      kind: 'connection',
      providerMessage: `${error.message}${connectionCause(error.cause)}`,
      hint: CONNECTION_HINT,
      ...base(context, error),
    });
  if (error instanceof APIError) return fromApiError(error, context);
  if (error instanceof SyntaxError)
    return new ModelError({
      kind: 'unknown',
      retryable: true,
      providerMessage: `the server sent invalid JSON: ${error.message}`,
      ...base(context, error),
    });
  const message = error instanceof Error ? error.message : String(error);
  return new ModelError({ kind: 'unknown', retryable: true, providerMessage: message, ...base(context, error) });
}

function fromApiError(error: APIError, context: ErrorContext): ModelError {
  const headers = error.headers instanceof Headers ? error.headers : undefined;
  const captured = capturedBodyOf(headers);
  // A mid-stream `{"error": ...}` event has no status and its headers are the stream's.
  const body: unknown = captured ? captured.body : error.status === undefined ? { error: error.error } : error.error;
  const facts: ErrorFacts = errorFacts(body) ?? { message: error.message || 'unknown error' };
  const status = error.status ?? facts.status;
  const retryAfter = retryAfterOf(headers) ?? facts.retryAfter;
  return fromFacts(status, facts, retryAfter, {
    ...(body !== undefined ? { body } : {}),
    ...(error.requestID ? { requestId: error.requestID } : {}),
    ...base(context, error),
  });
}

/** Builds the `ModelError` of a classified failure. */
function fromFacts(
  status: number | undefined,
  facts: ErrorFacts,
  retryAfter: number | undefined,
  rest: Omit<ModelErrorDetails, 'kind' | 'providerMessage'>,
): ModelError {
  const classified = classifyError(status, facts, retryAfter);
  return new ModelError({
    ...classified,
    providerMessage: facts.message,
    ...(status !== undefined ? { status } : {}),
    ...(retryAfter !== undefined ? { retryAfterMs: retryAfter * 1000 } : {}),
    ...(facts.code !== undefined ? { code: facts.code } : facts.type !== undefined ? { code: facts.type } : {}),
    ...rest,
  });
}

/** Maps an error that arrived inside a successful response (a 200 body or a stream event). */
export function fromErrorPayload(payload: unknown, context: ErrorContext): ModelError {
  const facts = errorFacts(payload) ?? { message: 'unknown error' };
  return fromFacts(facts.status, facts, facts.retryAfter, { body: payload, ...base(context, undefined) });
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
    ...(context.baseURL !== undefined ? { url: context.baseURL } : {}),
    ...(context.attempts !== undefined ? { attempts: context.attempts } : {}),
    ...(context.partial !== undefined ? { partial: context.partial } : {}),
    ...(cause !== undefined ? { cause } : {}),
  };
}
