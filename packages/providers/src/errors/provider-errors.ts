import { ReplanError } from '@replan/core';
import { markContextLengthError } from '@replan/core/agent-kit';
import type { Message } from '@replan/core';

/** What a provider error knows about the failed call. */
export interface ProviderErrorDetails {
  /** HTTP status, when the server answered (absent for connection errors and mid-stream errors without one). */
  readonly status?: number;
  /** The server's own message, whatever the shape of its error body. */
  readonly providerMessage: string;
  /** The error code the server gave (`context_length_exceeded`, `insufficient_quota`, ...). */
  readonly code?: string;
  /** The error type the server gave (`invalid_request_error`, ...). */
  readonly type?: string;
  /** The error body as received: parsed JSON when it was JSON, else the text. */
  readonly body?: unknown;
  readonly requestId?: string;
  /** The model the call was for. */
  readonly model?: string;
  /** The server the call went to (the client's base URL). */
  readonly baseURL?: string;
  /** How many times the request was sent (more than 1 when it was retried). */
  readonly attempts?: number;
  /** What the model had produced when a stream failed midway (text, reasoning, tool calls so far). */
  readonly partial?: Message;
  readonly cause?: unknown;
}

/**
 * A model provider failed. Subclasses say how: rate limit, quota, context length, auth, invalid
 * request, timeout. `retryable` tells whether the same request may succeed later.
 */
export class ProviderError extends ReplanError {
  readonly status: number | undefined;
  readonly providerMessage: string;
  readonly code: string | undefined;
  readonly type: string | undefined;
  readonly body: unknown;
  readonly requestId: string | undefined;
  readonly model: string | undefined;
  /** The server the call went to, when known. */
  readonly baseURL: string | undefined;
  /** How many times the request was sent (1 unless it was retried). */
  readonly attempts: number;
  /** The output a stream had produced before it failed, kept for the caller. */
  readonly partial: Message | undefined;

  /** Set by subclasses whose kind decides retrying, whatever the status. */
  private readonly fixedRetryable: boolean | undefined;

  constructor(details: ProviderErrorDetails, hint?: string, retryable?: boolean) {
    const who = details.model ? `model "${details.model}"` : 'the model provider';
    const where = details.baseURL ? `${who} at ${details.baseURL}` : who;
    const status = details.status !== undefined ? ` (HTTP ${details.status})` : '';
    const tries = details.attempts !== undefined && details.attempts > 1 ? ` after ${details.attempts} attempts` : '';
    super(`${where} failed${status}${tries}: ${details.providerMessage}${hint ? ` — ${hint}` : ''}`, { cause: details.cause });
    this.status = details.status;
    this.providerMessage = details.providerMessage;
    this.code = details.code;
    this.type = details.type;
    this.body = details.body;
    this.requestId = details.requestId;
    this.model = details.model;
    this.baseURL = details.baseURL;
    this.attempts = details.attempts ?? 1;
    this.partial = details.partial;
    this.fixedRetryable = retryable;
  }

  /** Whether the same request may succeed if sent again later. */
  get retryable(): boolean {
    if (this.fixedRetryable !== undefined) return this.fixedRetryable;
    return this.status === undefined || this.status === 408 || this.status === 409 || this.status >= 500;
  }
}

/** HTTP 429: too many requests or tokens per minute. Wait `retryAfter` seconds (when known) and retry. */
export class RateLimitError extends ProviderError {
  /** Seconds the server asked to wait, from `retry-after(-ms)` headers or the error body. */
  readonly retryAfter: number | undefined;
  constructor(details: ProviderErrorDetails & { readonly retryAfter?: number }) {
    super(
      details,
      details.retryAfter !== undefined
        ? `rate limited; retry after ${details.retryAfter}s`
        : 'rate limited; retry later or lower the request rate',
      true,
    );
    this.retryAfter = details.retryAfter;
  }
}

/** The account is out of quota or credits (a 429 or 402 that retrying cannot fix). */
export class QuotaExceededError extends ProviderError {
  constructor(details: ProviderErrorDetails) {
    super(details, 'quota or credits exhausted; check the plan and billing of this API key (not retried)', false);
  }
}

/** The request alone is bigger than the tokens-per-minute limit (or the body limit): retrying cannot help. */
export class RequestTooLargeError extends ProviderError {
  constructor(details: ProviderErrorDetails) {
    super(details, 'the request is larger than the provider accepts; send fewer tokens (not retried)', false);
  }
}

/**
 * The prompt does not fit the model's context window. Also an instance of `@replan/core`'s
 * `ContextLengthError` (the core concept any model may throw), so a `ReActAgent` with `compaction`
 * compacts and retries on it.
 */
export class ContextLengthError extends ProviderError {
  constructor(details: ProviderErrorDetails) {
    super(
      details,
      "the conversation is longer than the model's context window; shorten it, turn on compaction or use a larger model",
      false,
    );
    markContextLengthError(this);
  }
}

/** HTTP 401/403: the API key is missing, wrong or not allowed to use this model. */
export class AuthenticationError extends ProviderError {
  constructor(details: ProviderErrorDetails) {
    super(details, 'check apiKey / OPENAI_API_KEY and that the key may use this model', false);
  }
}

/** HTTP 400/404/422: the server refused the request as malformed or unsupported. */
export class InvalidRequestError extends ProviderError {
  constructor(details: ProviderErrorDetails) {
    super(details, undefined, false);
  }
}

/** The request timed out, or a stream sent nothing for longer than the idle timeout. */
export class TimeoutError extends ProviderError {
  constructor(details: ProviderErrorDetails) {
    super(details, undefined, true);
  }
}

/**
 * No connection could be made to the server (refused, DNS failure, reset before a response): the
 * message names the base URL. Retried `connectionRetries` times (default 1), each retry reported.
 */
export class ProviderConnectionError extends ProviderError {
  constructor(details: ProviderErrorDetails) {
    super(details, 'check baseURL / OPENAI_BASE_URL and that the server is running and reachable', true);
  }
}
