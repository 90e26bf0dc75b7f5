import { ReplanError, type Message } from '@replan/core';
import { markContextLengthError } from '@replan/core/agent-kit';

/** What a failed call of an AI SDK language model is known to be. */
export interface AiSdkModelErrorDetails {
  /** The model (`provider` and `modelId` of the language model, e.g. `anthropic.messages:claude-sonnet-4-5`). */
  readonly model: string;
  /** The provider's own message. */
  readonly providerMessage: string;
  /** HTTP status, when the server answered with one (a mid-stream error may carry none). */
  readonly status?: number;
  /** The URL the call went to, when the provider said. */
  readonly url?: string;
  /** The response body as received, when there was one. */
  readonly body?: unknown;
  /** How many times the request was sent (more than 1 when it was retried). */
  readonly attempts?: number;
  /** What the model had streamed before the stream failed. */
  readonly partial?: Message;
  /** Whether the same request may succeed later (the provider's `isRetryable` when it said). */
  readonly retryable?: boolean;
  /** The error the provider package threw (often an AI SDK `APICallError`). */
  readonly cause?: unknown;
}

/**
 * A call of an AI SDK language model failed. Subclasses say how: rate limit, context length,
 * authentication, invalid request. `status` and `retryable` are what `fallbackModel` and retries read.
 */
export class AiSdkModelError extends ReplanError {
  readonly model: string;
  readonly providerMessage: string;
  readonly status: number | undefined;
  readonly url: string | undefined;
  readonly body: unknown;
  readonly attempts: number;
  readonly partial: Message | undefined;
  /** Whether the same request may succeed if sent again later. */
  readonly retryable: boolean;

  constructor(details: AiSdkModelErrorDetails, hint?: string) {
    const status = details.status !== undefined ? ` (HTTP ${details.status})` : '';
    const tries = details.attempts !== undefined && details.attempts > 1 ? ` after ${details.attempts} attempts` : '';
    super(
      `model "${details.model}" failed${status}${tries}: ${details.providerMessage}${hint ? ` — ${hint}` : ''}`,
      details.cause !== undefined ? { cause: details.cause } : undefined,
    );
    this.model = details.model;
    this.providerMessage = details.providerMessage;
    this.status = details.status;
    this.url = details.url;
    this.body = details.body;
    this.attempts = details.attempts ?? 1;
    this.partial = details.partial;
    this.retryable = details.retryable ?? (details.status === undefined || details.status === 408 || details.status >= 500);
  }
}

/** HTTP 429 (or a provider's rate-limit error): wait `retryAfter` seconds, when known, and retry. */
export class RateLimitError extends AiSdkModelError {
  /** Seconds the server asked to wait (`retry-after-ms` / `retry-after` headers), when it said. */
  readonly retryAfter: number | undefined;
  constructor(details: AiSdkModelErrorDetails & { readonly retryAfter?: number }) {
    super(
      { ...details, retryable: true },
      details.retryAfter !== undefined
        ? `rate limited; retry after ${details.retryAfter}s`
        : 'rate limited; retry later or lower the request rate',
    );
    this.retryAfter = details.retryAfter;
  }
}

/**
 * The prompt does not fit the model's context window. Also an instance of `@replan/core`'s
 * `ContextLengthError`, so a `ReActAgent` with `compaction` compacts and retries on it.
 */
export class ContextLengthError extends AiSdkModelError {
  constructor(details: AiSdkModelErrorDetails) {
    super(
      { ...details, retryable: false },
      "the conversation is longer than the model's context window; shorten it, turn on compaction or use a larger model",
    );
    markContextLengthError(this);
  }
}

/** HTTP 401/403, or no API key found: the key is missing, wrong or not allowed to use this model. */
export class AuthenticationError extends AiSdkModelError {
  constructor(details: AiSdkModelErrorDetails) {
    super(
      { ...details, retryable: false },
      'check the API key the provider package reads (its option or environment variable) and that it may use this model',
    );
  }
}

/** HTTP 400/404/422, or a prompt the provider package refused: retrying the same request cannot help. */
export class InvalidRequestError extends AiSdkModelError {
  constructor(details: AiSdkModelErrorDetails) {
    super({ ...details, retryable: false });
  }
}

/**
 * The stream sent nothing for `idleTimeoutMs`: the request was cancelled. Retryable, and a
 * `fallbackModel` hands the call on as a timeout; raise `idleTimeoutMs` for a model that thinks long in silence.
 */
export class TimeoutError extends AiSdkModelError {
  constructor(details: AiSdkModelErrorDetails) {
    super({ ...details, retryable: true }, 'raise idleTimeoutMs if the model may stay silent this long');
  }
}
