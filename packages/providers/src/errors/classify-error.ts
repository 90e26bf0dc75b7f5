import type { ErrorFacts } from './error-body.js';

export type ErrorKind = 'rate_limit' | 'quota' | 'too_large' | 'context_length' | 'auth' | 'invalid' | 'timeout' | 'server' | 'other';

const CONTEXT_CODES = new Set(['context_length_exceeded', 'string_above_max_length', 'context_window_exceeded']);
const CONTEXT_TEXT =
  /context[_ ]length[_ ]exceeded|maximum context length|context (?:length|window)|prompt is too long|input (?:is )?too long|exceeds the maximum number of tokens|too many (?:input )?tokens|reduce the length of the messages/i;

const QUOTA_CODES = new Set(['insufficient_quota', 'billing_hard_limit_reached', 'billing_not_active', 'quota_exceeded']);
const QUOTA_TEXT =
  /insufficient[_ ]quota|check your plan and billing|billing (?:hard )?limit|credit balance|insufficient (?:balance|credits|funds)|out of credits|quota exceeded|exceeded your (?:current )?quota/i;
const TOO_LARGE_TEXT = /request too large|payload too large|request entity too large|request body too large/i;
const RATE_TEXT = /rate[_ ]limit|too many requests|resource[_ ]exhausted|overloaded/i;

/** True when the error says the prompt does not fit the model's context window. */
export function isContextLengthError(facts: ErrorFacts | undefined): boolean {
  if (!facts) return false;
  return (facts.code !== undefined && CONTEXT_CODES.has(facts.code)) || CONTEXT_TEXT.test(facts.message);
}

/**
 * Decides what an error means from its HTTP status (or the status inside a mid-stream error),
 * its code and its message. `retryAfter` is a known wait: a quota-sounding 429 that comes with
 * one is a rate limit (Google words its per-minute limits like a billing problem).
 */
export function classifyError(status: number | undefined, facts: ErrorFacts | undefined, retryAfter?: number): ErrorKind {
  const code = facts?.code;
  const type = facts?.type;
  const message = facts?.message ?? '';
  const effective = status ?? facts?.status;

  if (effective === 401 || effective === 403) return 'auth';
  if (effective === 429 || (effective === undefined && (RATE_TEXT.test(message) || RATE_TEXT.test(code ?? '')))) {
    if (TOO_LARGE_TEXT.test(message)) return 'too_large';
    const quota =
      (code !== undefined && QUOTA_CODES.has(code)) || (type !== undefined && QUOTA_CODES.has(type)) || QUOTA_TEXT.test(message);
    if (quota && retryAfter === undefined && facts?.retryAfter === undefined) return 'quota';
    return 'rate_limit';
  }
  if (isContextLengthError(facts)) return 'context_length';
  if (effective === 402) return 'quota';
  if (effective === undefined && ((code !== undefined && QUOTA_CODES.has(code)) || QUOTA_TEXT.test(message))) return 'quota';
  if (effective === 413) return 'too_large';
  if (effective === 408 || effective === 504) return 'timeout';
  if (effective !== undefined && effective >= 500) return 'server';
  if (effective === 400 || effective === 404 || effective === 405 || effective === 415 || effective === 422) return 'invalid';
  if (effective === undefined && (type === 'invalid_request_error' || code === 'invalid_request_error')) return 'invalid';
  return 'other';
}

/** A 429 that retrying cannot fix: the SDK is told not to retry it. */
export const isNonRetryable429 = (kind: ErrorKind) => kind === 'quota' || kind === 'too_large';
