import { ReplanError } from './replan-error.js';

// A registered symbol, so the brand holds across copies of this package (two installs, or dist and src).
const CONTEXT_LENGTH = Symbol.for('replan.ContextLengthError');

/** What a context overflow knows; every field is optional (a server may say none of it). */
export interface ContextLengthDetails {
  /** The model that refused the request. */
  readonly model?: string;
  /** The model's context window in tokens, when known. */
  readonly contextWindow?: number;
  /** How many tokens the request had, when the server said. */
  readonly requestTokens?: number;
  readonly cause?: unknown;
}

/**
 * The request does not fit the model's context window. Any `ChatModel` may throw it; a
 * `ReActAgent` with `compaction` catches it, compacts its turn and retries once.
 *
 * `@replan/providers` throws its own `ContextLengthError` — a `ProviderError` with the HTTP details —
 * which is also an instance of this class (`error instanceof ContextLengthError` holds for both), so
 * code that only imports `@replan/core` can recognise an overflow from any model.
 */
export class ContextLengthError extends ReplanError {
  readonly model: string | undefined;
  readonly contextWindow: number | undefined;
  readonly requestTokens: number | undefined;

  constructor(message?: string, details: ContextLengthDetails = {}) {
    super(
      message ??
        `the request is longer than ${details.model ? `model "${details.model}"'s` : "the model's"} context window${
          details.contextWindow !== undefined ? ` (${details.contextWindow} tokens)` : ''
        }; shorten it, turn on compaction, or use a larger model`,
      details.cause !== undefined ? { cause: details.cause } : undefined,
    );
    this.model = details.model;
    this.contextWindow = details.contextWindow;
    this.requestTokens = details.requestTokens;
  }

  /** True for this class's instances and for errors marked by `markContextLengthError` (a provider's own class). */
  static override [Symbol.hasInstance](value: unknown): boolean {
    if (typeof value !== 'object' || value === null) return false;
    // Only the base class accepts marked errors: a subclass stays an ordinary `instanceof` test.
    // biome-ignore lint/complexity/noThisInStatic: `instanceof` must test the class it is called on (a subclass too)
    if (this === ContextLengthError && (value as Record<symbol, unknown>)[CONTEXT_LENGTH] === true) return true;
    // biome-ignore lint/complexity/noThisInStatic: the ordinary prototype test for the class called on
    return Function.prototype[Symbol.hasInstance].call(this, value);
  }
}

/**
 * Marks an error of another class (e.g. a provider's `ProviderError` subclass) as a context overflow,
 * so `error instanceof ContextLengthError` holds for it. For model implementations that must keep
 * their own error hierarchy.
 */
export function markContextLengthError<E extends object>(error: E): E {
  Object.defineProperty(error, CONTEXT_LENGTH, { value: true, enumerable: false });
  return error;
}

/** Whether `error`, or an error in its `cause` chain, is a context overflow. */
export function isContextLengthError(error: unknown): boolean {
  for (let e = error, depth = 0; e !== undefined && e !== null && depth < 8; e = (e as { cause?: unknown }).cause, depth++)
    if (e instanceof ContextLengthError) return true;
  return false;
}
