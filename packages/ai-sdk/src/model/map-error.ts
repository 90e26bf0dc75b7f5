import { APICallError, InvalidPromptError, LoadAPIKeyError, UnsupportedFunctionalityError } from '@ai-sdk/provider';
import { type Message, ModelError, type ModelErrorDetails, type ModelErrorKind } from '@replan/core';
import { kindOfStatus } from '@replan/core/agent-kit';

/** What a mapped error should name besides what the error itself says. */
export interface ErrorContext {
  readonly model: string;
  readonly attempts?: number;
  readonly partial?: Message;
}

type Base = Omit<ModelErrorDetails, 'kind' | 'providerMessage'>;

// The wordings of context overflows across providers (OpenAI, Anthropic, Gemini, Mistral, vLLM, llama.cpp, Ollama).
const CONTEXT_CODES = /context_length_exceeded|context_window_exceeded|string_above_max_length/;
const CONTEXT_TEXT =
  /maximum context length|context (?:length|window)|prompt is too long|input (?:is )?too long|exceeds the maximum number of tokens|too many (?:input )?tokens|reduce the length of the messages/i;
const RATE_TYPES = /rate[_ ]limit|too many requests|resource[_ ]exhausted/i;
const OVERLOADED = /overloaded/i;
// Content policy refusals: OpenAI/Azure's codes and wording, Gemini's SAFETY / PROHIBITED_CONTENT blocks.
const CONTENT_FILTER =
  /content_filter|content_policy_violation|content (?:management )?policy|safety system|prohibited_content|\bSAFETY\b/i;
const AUTH_HINT = 'check the API key the provider package reads (its option or environment variable) and that it may use this model';

/** True for an abort the caller asked for (passed on unchanged: the caller knows why it aborted). */
export function isAbortError(error: unknown): boolean {
  return error instanceof Error && (error.name === 'AbortError' || (error as { code?: unknown }).code === 'ABORT_ERR');
}

/**
 * Turns what a provider package threw (an `APICallError` with its status, headers and body, a
 * missing key, a refused prompt) or sent as a stream's `error` part into core's `ModelError`
 * naming the model, the provider's error as `cause`. Aborts and `ModelError`s are returned as they are.
 */
export function toModelError(error: unknown, context: ErrorContext): unknown {
  if (error instanceof ModelError || isAbortError(error)) return error;
  const base = baseDetails(context, error);
  if (LoadAPIKeyError.isInstance(error)) return new ModelError({ kind: 'auth', hint: AUTH_HINT, ...base, providerMessage: error.message });
  if (InvalidPromptError.isInstance(error) || UnsupportedFunctionalityError.isInstance(error))
    return new ModelError({ kind: 'invalid_request', ...base, providerMessage: error.message });
  if (APICallError.isInstance(error)) return fromApiCallError(error, base);
  return fromPayload(error, base);
}

function fromApiCallError(error: APICallError, base: Base): ModelError {
  const body = parseBody(error.responseBody);
  const providerMessage = messageOf(body) ?? error.message;
  const status = error.statusCode;
  const code = codeOf(body);
  const retryAfter = retryAfterOf(error.responseHeaders);
  const details = {
    ...base,
    providerMessage,
    ...(status !== undefined ? { status } : {}),
    url: error.url,
    ...(body !== undefined ? { body } : {}),
    ...(code !== undefined ? { code } : {}),
    ...(retryAfter !== undefined ? { retryAfterMs: retryAfter * 1000 } : {}),
  };
  const facts = `${providerMessage} ${code ?? ''}`;
  const kind = kindOfApiCall(status, facts);
  // The provider's `isRetryable` decides, except where the kind alone does (a rate limit is worth a wait).
  const retryable =
    kind === 'rate_limit'
      ? true
      : kind === 'auth' || kind === 'context_length' || kind === 'invalid_request' || kind === 'content_filter'
        ? false
        : error.isRetryable;
  return new ModelError({ kind, retryable, ...(kind === 'auth' ? { hint: AUTH_HINT } : {}), ...details });
}

function kindOfApiCall(status: number | undefined, facts: string): ModelErrorKind {
  if (status === 429 || (status === undefined && RATE_TYPES.test(facts))) return 'rate_limit';
  if (status === 401 || status === 403) return 'auth';
  if (CONTEXT_CODES.test(facts) || CONTEXT_TEXT.test(facts)) return 'context_length';
  if (CONTENT_FILTER.test(facts)) return 'content_filter';
  if (OVERLOADED.test(facts)) return 'overloaded';
  return (status !== undefined ? kindOfStatus(status) : undefined) ?? 'unknown';
}

/** A stream's `error` part or anything else thrown: an `Error`, or a provider's error object (`{ type, message }`). */
function fromPayload(error: unknown, base: Base): ModelError {
  const message = messageOf(error) ?? (error instanceof Error ? error.message : safeString(error));
  const code = codeOf(error);
  const facts = `${message} ${code ?? ''}`;
  const details = {
    ...base,
    providerMessage: message,
    ...(code !== undefined ? { code } : {}),
    ...(error instanceof Error ? {} : { body: error }),
  };
  if (RATE_TYPES.test(code ?? '')) return new ModelError({ kind: 'rate_limit', ...details });
  // Anthropic's `overloaded_error` (HTTP 529 when it is not mid-stream): another attempt or model may answer.
  if (OVERLOADED.test(code ?? '')) return new ModelError({ kind: 'overloaded', ...details });
  if (CONTEXT_CODES.test(facts) || CONTEXT_TEXT.test(facts)) return new ModelError({ kind: 'context_length', ...details });
  if (/authenticat|permission/i.test(code ?? '')) return new ModelError({ kind: 'auth', hint: AUTH_HINT, ...details });
  if (CONTENT_FILTER.test(facts)) return new ModelError({ kind: 'content_filter', ...details });
  // Unexplained (a dropped stream, a provider's own error object): worth another attempt.
  return new ModelError({ kind: 'unknown', retryable: true, ...details });
}

function baseDetails(context: ErrorContext, cause: unknown): Base {
  return {
    model: context.model,
    ...(context.attempts !== undefined ? { attempts: context.attempts } : {}),
    ...(context.partial !== undefined ? { partial: context.partial } : {}),
    ...(cause !== undefined ? { cause } : {}),
  };
}

/** Seconds to wait from `retry-after-ms` or `retry-after` (seconds or an HTTP date). */
export function retryAfterOf(headers: Record<string, string> | undefined): number | undefined {
  if (!headers) return undefined;
  const lower = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
  const ms = Number.parseFloat(lower['retry-after-ms'] ?? '');
  if (Number.isFinite(ms) && ms >= 0) return ms / 1000;
  const value = lower['retry-after'];
  if (value === undefined) return undefined;
  const seconds = Number.parseFloat(value);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, (date - Date.now()) / 1000);
}

function parseBody(text: string | undefined): unknown {
  if (text === undefined || text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

const recordOf = (value: unknown): Record<string, unknown> | undefined =>
  typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : undefined;

/** The message of an error body: `{ error: { message } }`, `{ message }`, `{ error: "…" }` or a text body. */
function messageOf(body: unknown): string | undefined {
  if (typeof body === 'string') return body.trim() || undefined;
  const record = recordOf(body);
  if (!record) return undefined;
  const inner = recordOf(record.error);
  if (inner && typeof inner.message === 'string') return inner.message;
  if (typeof record.error === 'string') return record.error;
  return typeof record.message === 'string' ? record.message : undefined;
}

/** The code or type of an error body (`context_length_exceeded`, `rate_limit_error`, `overloaded_error`, …). */
function codeOf(body: unknown): string | undefined {
  const record = recordOf(body);
  if (!record) return undefined;
  const inner = recordOf(record.error) ?? record;
  const parts = [inner.code, inner.type, inner.status].filter((v): v is string => typeof v === 'string');
  return parts.length > 0 ? parts.join(' ') : undefined;
}

function safeString(value: unknown): string {
  try {
    return typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
  } catch {
    return String(value);
  }
}
