import { APICallError, InvalidPromptError, LoadAPIKeyError, UnsupportedFunctionalityError } from '@ai-sdk/provider';
import type { Message } from '@replan/core';
import {
  AiSdkModelError,
  AuthenticationError,
  ContextLengthError,
  InvalidRequestError,
  RateLimitError,
  type AiSdkModelErrorDetails,
} from './model-errors.js';

/** What a mapped error should name besides what the error itself says. */
export interface ErrorContext {
  readonly model: string;
  readonly attempts?: number;
  readonly partial?: Message;
}

// The wordings of context overflows across providers (OpenAI, Anthropic, Gemini, Mistral, vLLM, llama.cpp, Ollama).
const CONTEXT_CODES = /context_length_exceeded|context_window_exceeded|string_above_max_length/;
const CONTEXT_TEXT =
  /maximum context length|context (?:length|window)|prompt is too long|input (?:is )?too long|exceeds the maximum number of tokens|too many (?:input )?tokens|reduce the length of the messages/i;
const RATE_TYPES = /rate[_ ]limit|too many requests|resource[_ ]exhausted/i;
const OVERLOADED = /overloaded/i;

/** True for an abort the caller asked for (passed on unchanged: the caller knows why it aborted). */
export function isAbortError(error: unknown): boolean {
  return error instanceof Error && (error.name === 'AbortError' || (error as { code?: unknown }).code === 'ABORT_ERR');
}

/**
 * Turns what a provider package threw (an `APICallError` with its status, headers and body, a
 * missing key, a refused prompt) or sent as a stream's `error` part into a typed error naming the
 * model. Aborts and errors already mapped are returned as they are.
 */
export function toModelError(error: unknown, context: ErrorContext): unknown {
  if (error instanceof AiSdkModelError || isAbortError(error)) return error;
  const base = baseDetails(context, error);
  if (LoadAPIKeyError.isInstance(error)) return new AuthenticationError({ ...base, providerMessage: error.message });
  if (InvalidPromptError.isInstance(error) || UnsupportedFunctionalityError.isInstance(error))
    return new InvalidRequestError({ ...base, providerMessage: error.message });
  if (APICallError.isInstance(error)) return fromApiCallError(error, base);
  return fromPayload(error, base);
}

function fromApiCallError(error: APICallError, base: Omit<AiSdkModelErrorDetails, 'providerMessage'>): AiSdkModelError {
  const body = parseBody(error.responseBody);
  const details: AiSdkModelErrorDetails = {
    ...base,
    providerMessage: messageOf(body) ?? error.message,
    ...(error.statusCode !== undefined ? { status: error.statusCode } : {}),
    url: error.url,
    ...(body !== undefined ? { body } : {}),
    retryable: error.isRetryable,
  };
  const status = error.statusCode;
  const facts = `${details.providerMessage} ${codeOf(body) ?? ''}`;
  if (status === 429 || (status === undefined && RATE_TYPES.test(facts))) {
    const retryAfter = retryAfterOf(error.responseHeaders);
    return new RateLimitError({ ...details, ...(retryAfter !== undefined ? { retryAfter } : {}) });
  }
  if (status === 401 || status === 403) return new AuthenticationError(details);
  if (CONTEXT_CODES.test(facts) || CONTEXT_TEXT.test(facts)) return new ContextLengthError(details);
  if (status === 400 || status === 404 || status === 405 || status === 413 || status === 415 || status === 422)
    return new InvalidRequestError(details);
  return new AiSdkModelError(details);
}

/** A stream's `error` part or anything else thrown: an `Error`, or a provider's error object (`{ type, message }`). */
function fromPayload(error: unknown, base: Omit<AiSdkModelErrorDetails, 'providerMessage'>): AiSdkModelError {
  const message = messageOf(error) ?? (error instanceof Error ? error.message : safeString(error));
  const code = codeOf(error) ?? '';
  const facts = `${message} ${code}`;
  const details: AiSdkModelErrorDetails = { ...base, providerMessage: message, ...(error instanceof Error ? {} : { body: error }) };
  if (RATE_TYPES.test(code)) return new RateLimitError({ ...details, status: 429 });
  // Anthropic's `overloaded_error` (HTTP 529 when it is not mid-stream): another attempt or model may answer.
  if (OVERLOADED.test(code)) return new AiSdkModelError({ ...details, status: 529, retryable: true });
  if (CONTEXT_CODES.test(facts) || CONTEXT_TEXT.test(facts)) return new ContextLengthError(details);
  if (/authenticat|permission/i.test(code)) return new AuthenticationError(details);
  return new AiSdkModelError(details);
}

function baseDetails(context: ErrorContext, cause: unknown): Omit<AiSdkModelErrorDetails, 'providerMessage'> {
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
