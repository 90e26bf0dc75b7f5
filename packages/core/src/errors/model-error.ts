import type { Message } from '../messages/message.js';
import { ReplanError } from './replan-error.js';

/**
 * What went wrong with a model call, whichever provider or SDK made it:
 * - `rate_limit`: too many requests or tokens (HTTP 429); also an exhausted quota or credits, which
 *   waiting does not fix (`retryable: false`);
 * - `context_length`: the request does not fit the model's context window;
 * - `auth`: the API key is missing, wrong or may not use this model (HTTP 401, 403);
 * - `invalid_request`: the server refused the request itself (HTTP 400, 404, 413, 422 …);
 * - `timeout`: no answer in time (HTTP 408, 504), or a stream fell silent;
 * - `overloaded`: the provider is overloaded (HTTP 503, 529, an `overloaded_error`);
 * - `content_filter`: the provider's content policy refused the request or the answer;
 * - `server`: any other 5xx (the provider failed);
 * - `connection`: no connection could be made (refused, DNS failure, reset);
 * - `unknown`: a failure the provider did not explain (an odd status, a malformed answer).
 *
 * The first seven name what the provider said; the last three keep "no answer at all" and "an error
 * we cannot classify" apart from them, because their cures differ (check the base URL; report it).
 */
export type ModelErrorKind =
  | 'rate_limit'
  | 'context_length'
  | 'auth'
  | 'invalid_request'
  | 'timeout'
  | 'overloaded'
  | 'content_filter'
  | 'server'
  | 'connection'
  | 'unknown';

/** What a `ModelError` knows; everything but `kind` is optional (a server may say little). */
export interface ModelErrorDetails {
  readonly kind: ModelErrorKind;
  /** The provider's own message (default: a sentence for the kind). */
  readonly providerMessage?: string;
  /** What to do about it, appended to the message (default: the kind's advice). */
  readonly hint?: string;
  /** The model the call was for. */
  readonly model?: string;
  /** HTTP status, when the server answered with one. */
  readonly status?: number;
  /** Whether the same request may succeed later (default: by kind, see `ModelError.retryable`). */
  readonly retryable?: boolean;
  /** How long the provider asked to wait before retrying, in ms (`retry-after`, a body's retry delay). */
  readonly retryAfterMs?: number;
  /** The provider's error code or type (`context_length_exceeded`, `insufficient_quota`, `overloaded_error` …). */
  readonly code?: string;
  /** The error body as received: parsed JSON when it was JSON, else the text. */
  readonly body?: unknown;
  readonly requestId?: string;
  /** The server (base URL) or endpoint the call went to. */
  readonly url?: string;
  /** How many times the request was sent (more than 1 when it was retried). */
  readonly attempts?: number;
  /** What the model had produced when a stream failed midway (text, reasoning, tool calls so far). */
  readonly partial?: Message;
  /** For `context_length`: the model's context window in tokens, when known. */
  readonly contextWindow?: number;
  /** For `context_length`: how many tokens the request had, when the server said. */
  readonly requestTokens?: number;
  /** The provider's or SDK's own error. */
  readonly cause?: unknown;
}

// A registered symbol, so `instanceof` holds across copies of this package (two installs, or dist and src).
const BRAND = Symbol.for('replan.ModelError');

const RETRYABLE: Readonly<Record<ModelErrorKind, boolean>> = {
  rate_limit: true,
  context_length: false,
  auth: false,
  invalid_request: false,
  timeout: true,
  overloaded: true,
  content_filter: false,
  server: true,
  connection: true,
  unknown: false,
};

const SAYS: Readonly<Record<ModelErrorKind, string>> = {
  rate_limit: 'rate limited',
  context_length: "the request is longer than the model's context window",
  auth: 'the API key was refused',
  invalid_request: 'the request was refused as invalid',
  timeout: 'the request timed out',
  overloaded: 'the provider is overloaded',
  content_filter: "the provider's content policy refused the request",
  server: 'the provider failed',
  connection: 'no connection could be made',
  unknown: 'the call failed',
};

const ADVICE: Readonly<Record<ModelErrorKind, string | undefined>> = {
  rate_limit: 'retry later or lower the request rate',
  context_length: 'shorten it, turn on compaction or use a larger model',
  auth: 'check the API key and that it may use this model',
  invalid_request: undefined, // the provider's message says what it refused
  timeout: 'retry, or raise the timeout if the model may take this long',
  overloaded: 'retry later, or add another model with fallbackModel',
  content_filter: 'rephrase the request; retrying it unchanged gets the same answer',
  server: "retry later, or check the provider's status",
  connection: 'check the base URL and that the server is running and reachable',
  unknown: undefined,
};

/**
 * A model call failed. The one model-error class: every `ChatModel` of replan (`@replan/providers`,
 * `@replan/ai-sdk`) throws it, and any other model may. `kind` says what went wrong, `retryable`
 * whether the same request may succeed later, `status` the HTTP status, `cause` the provider's own
 * error, `retryAfterMs` how long the provider asked to wait. Retries, `fallbackModel` and compaction
 * (on `kind: 'context_length'`) read these fields, never class names.
 *
 * ```ts
 * if (error instanceof ModelError && error.kind === 'rate_limit') await sleep(error.retryAfterMs ?? 1000);
 * ```
 */
export class ModelError extends ReplanError {
  readonly kind: ModelErrorKind;
  /** Whether the same request may succeed if sent again later. */
  readonly retryable: boolean;
  readonly status: number | undefined;
  readonly retryAfterMs: number | undefined;
  /** The provider's own message (or the kind's sentence when it gave none). */
  readonly providerMessage: string;
  readonly code: string | undefined;
  readonly body: unknown;
  readonly requestId: string | undefined;
  readonly model: string | undefined;
  readonly url: string | undefined;
  /** How many times the request was sent (1 unless it was retried). */
  readonly attempts: number;
  readonly partial: Message | undefined;
  readonly contextWindow: number | undefined;
  readonly requestTokens: number | undefined;

  constructor(details: ModelErrorDetails) {
    const said = details.providerMessage ?? SAYS[details.kind];
    const who = details.model ? `model "${details.model}"` : 'the model';
    const where = details.url ? `${who} at ${details.url}` : who;
    const status = details.status !== undefined ? ` (HTTP ${details.status})` : '';
    const tries = details.attempts !== undefined && details.attempts > 1 ? ` after ${details.attempts} attempts` : '';
    const window = details.kind === 'context_length' && details.contextWindow !== undefined ? ` (${details.contextWindow} tokens)` : '';
    const wait =
      details.kind === 'rate_limit' && details.retryAfterMs !== undefined ? `retry after ${details.retryAfterMs / 1000}s` : undefined;
    const hint = details.hint ?? wait ?? ADVICE[details.kind];
    super(
      `${where} failed${status}${tries}: ${said}${window}${hint ? ` — ${hint}` : ''}`,
      details.cause !== undefined ? { cause: details.cause } : undefined,
    );
    this.kind = details.kind;
    this.retryable = details.retryable ?? RETRYABLE[details.kind];
    this.status = details.status;
    this.retryAfterMs = details.retryAfterMs;
    this.providerMessage = said;
    this.code = details.code;
    this.body = details.body;
    this.requestId = details.requestId;
    this.model = details.model;
    this.url = details.url;
    this.attempts = details.attempts ?? 1;
    this.partial = details.partial;
    this.contextWindow = details.contextWindow;
    this.requestTokens = details.requestTokens;
    Object.defineProperty(this, BRAND, { value: true });
  }

  /** True for instances of this class from any copy of `@replan/core` (a second install, dist and src). */
  static override [Symbol.hasInstance](value: unknown): boolean {
    if (typeof value !== 'object' || value === null) return false;
    // biome-ignore lint/complexity/noThisInStatic: `instanceof` must test the class it is called on (a subclass too)
    if (this === ModelError && (value as Record<symbol, unknown>)[BRAND] === true) return true;
    // biome-ignore lint/complexity/noThisInStatic: the ordinary prototype test for the class called on
    return Function.prototype[Symbol.hasInstance].call(this, value);
  }
}

/**
 * The `ModelError` that `error` is or wraps (in its `cause` chain: a `ModelCallError`, a
 * `FallbackExhaustedError`), or `undefined`. How compaction finds a context overflow and
 * `fallbackModel` the kind of a failure.
 */
export function modelErrorOf(error: unknown): ModelError | undefined {
  for (let e = error, depth = 0; e !== undefined && e !== null && depth < 8; e = (e as { cause?: unknown }).cause, depth++)
    if (e instanceof ModelError) return e;
  return undefined;
}
