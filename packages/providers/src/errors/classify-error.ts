import type { ModelErrorKind } from '@replan/core';
import type { ErrorFacts } from './error-body.js';

/** What a failed call is, as `ModelError` says it: its kind, and where the kind alone does not say, retryable and what to do. */
export interface Classified {
  readonly kind: ModelErrorKind;
  readonly retryable?: boolean;
  readonly hint?: string;
}

const QUOTA: Classified = {
  kind: 'rate_limit',
  retryable: false,
  hint: 'quota or credits exhausted; check the plan and billing of this API key (not retried)',
};
const TOO_LARGE: Classified = {
  kind: 'invalid_request',
  retryable: false,
  hint: 'the request is larger than the provider accepts; send fewer tokens (not retried)',
};
const AUTH: Classified = { kind: 'auth', hint: 'check apiKey / OPENAI_API_KEY and that the key may use this model' };

const CONTEXT_CODES = new Set(['context_length_exceeded', 'string_above_max_length', 'context_window_exceeded']);
const CONTEXT_TEXT =
  /context[_ ]length[_ ]exceeded|maximum context length|context (?:length|window)|prompt is too long|input (?:is )?too long|exceeds the maximum number of tokens|too many (?:input )?tokens|reduce the length of the messages/i;

const QUOTA_CODES = new Set(['insufficient_quota', 'billing_hard_limit_reached', 'billing_not_active', 'quota_exceeded']);
const QUOTA_TEXT =
  /insufficient[_ ]quota|check your plan and billing|billing (?:hard )?limit|credit balance|insufficient (?:balance|credits|funds)|out of credits|quota exceeded|exceeded your (?:current )?quota/i;
const TOO_LARGE_TEXT = /request too large|payload too large|request entity too large|request body too large/i;
const RATE_TEXT = /rate[_ ]limit|too many requests|resource[_ ]exhausted|overloaded/i;
const FILTER_CODES = new Set(['content_filter', 'content_policy_violation', 'responsible_ai_policy_violation']);
const FILTER_TEXT = /content (?:management )?policy|content[_ ]filter|safety system/i;

/** True when the error says the prompt does not fit the model's context window. */
export function saysContextLength(facts: ErrorFacts | undefined): boolean {
  if (!facts) return false;
  return (facts.code !== undefined && CONTEXT_CODES.has(facts.code)) || CONTEXT_TEXT.test(facts.message);
}

/**
 * Decides what an error means from its HTTP status (or the status inside a mid-stream error),
 * its code and its message. `retryAfter` is a known wait: a quota-sounding 429 that comes with
 * one is a rate limit (Google words its per-minute limits like a billing problem).
 */
export function classifyError(status: number | undefined, facts: ErrorFacts | undefined, retryAfter?: number): Classified {
  const code = facts?.code;
  const type = facts?.type;
  const message = facts?.message ?? '';
  const effective = status ?? facts?.status;

  if (effective === 401 || effective === 403) return AUTH;
  if (effective === 429 || (effective === undefined && (RATE_TEXT.test(message) || RATE_TEXT.test(code ?? '')))) {
    if (TOO_LARGE_TEXT.test(message)) return TOO_LARGE;
    const quota =
      (code !== undefined && QUOTA_CODES.has(code)) || (type !== undefined && QUOTA_CODES.has(type)) || QUOTA_TEXT.test(message);
    if (quota && retryAfter === undefined && facts?.retryAfter === undefined) return QUOTA;
    // Anthropic's `overloaded_error` mid-stream (HTTP 529 otherwise): the provider, not this key, is busy.
    if (effective === undefined && /overloaded/i.test(`${code ?? ''} ${type ?? ''} ${message}`)) return { kind: 'overloaded' };
    return { kind: 'rate_limit' };
  }
  if (saysContextLength(facts)) return { kind: 'context_length' };
  if ((code !== undefined && FILTER_CODES.has(code)) || FILTER_TEXT.test(message)) return { kind: 'content_filter' };
  if (effective === 402) return QUOTA;
  if (effective === undefined && ((code !== undefined && QUOTA_CODES.has(code)) || QUOTA_TEXT.test(message))) return QUOTA;
  if (effective === 413) return TOO_LARGE;
  if (effective === 408 || effective === 504) return { kind: 'timeout' };
  if (effective === 503 || effective === 529) return { kind: 'overloaded' };
  if (effective !== undefined && effective >= 500) return { kind: 'server' };
  if (effective === 400 || effective === 404 || effective === 405 || effective === 415 || effective === 422)
    return { kind: 'invalid_request' };
  if (effective === undefined && (type === 'invalid_request_error' || code === 'invalid_request_error')) return { kind: 'invalid_request' };
  // Unexplained: retried when no status said otherwise (a dropped stream), or on a 409 conflict.
  return { kind: 'unknown', retryable: effective === undefined || effective === 409 };
}
