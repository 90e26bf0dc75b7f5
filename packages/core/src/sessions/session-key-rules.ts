import { InvalidArgumentError } from '../errors/replan-error.js';
import type { SessionKey } from './session.js';

/**
 * The longest `appName`, `userId` or session id, in UTF-16 code units (`string.length`).
 *
 * Why 256 and not more: a code unit takes up to 3 bytes in UTF-8, so a whole key (app, user and
 * id at the limit) is at most 2,304 bytes, which fits PostgreSQL's btree index rows (2,704 bytes
 * at most; 512 per field fails there with varied CJK ids). File names stay short (hashed).
 */
export const MAX_ID_LENGTH = 256;

/** The fields of a session key, as error messages name them. */
export type IdentifierField = 'appName' | 'userId' | 'session id';

/** How much of a bad id an error message shows: enough to recognise it, never a hostile 10k-character value. */
const PREVIEW_LENGTH = 40;

// Unicode category Cc: the C0 controls (U+0000–U+001F), DEL (U+007F) and the C1 controls (U+0080–U+009F).
const CONTROL = /\p{Cc}/u;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** `String.prototype.isWellFormed` (Node 20+; not in TypeScript's ES2023 lib). */
export function isWellFormedString(value: string): boolean {
  return (value as string & { isWellFormed(): boolean }).isWellFormed();
}

/**
 * A short, printable rendering of an untrusted string for error messages: the first 40 code
 * units, with control characters and lone surrogates escaped as `\u` and four hex digits, and the full length
 * when it was cut.
 */
export function previewString(value: string): string {
  const head = value.length > PREVIEW_LENGTH ? value.slice(0, PREVIEW_LENGTH) : value;
  let out = '';
  for (let i = 0; i < head.length; i++) {
    const code = head.charCodeAt(i);
    const isHigh = code >= 0xd800 && code <= 0xdbff;
    const next = head.charCodeAt(i + 1);
    if (isHigh && next >= 0xdc00 && next <= 0xdfff) {
      out += head[i]! + head[i + 1]!;
      i++;
    } else if (code < 0x20 || (code >= 0x7f && code <= 0x9f) || (code >= 0xd800 && code <= 0xdfff) || code === 0x22 || code === 0x5c)
      out += code === 0x22 ? '\\"' : code === 0x5c ? '\\\\' : `\\u${code.toString(16).toUpperCase().padStart(4, '0')}`;
    else out += head[i];
  }
  return value.length > PREVIEW_LENGTH ? `"${out}…" (${value.length} characters)` : `"${out}"`;
}

function describeNonString(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/** Why `value` is not a valid identifier, or `undefined` when it is one. */
/**
 * The last identifiers found valid: a run checks the same session key on every append, and the
 * checks (two scans of the string) showed in the loop's profile. Strings are immutable, so a
 * remembered one stays valid.
 */
const recentlyValid: string[] = [];

function problemOf(value: unknown): string | undefined {
  if (typeof value === 'string' && recentlyValid.includes(value)) return undefined;
  const problem = checkIdentifier(value);
  if (problem === undefined) {
    recentlyValid.unshift(value as string);
    if (recentlyValid.length > 8) recentlyValid.pop();
  }
  return problem;
}

function checkIdentifier(value: unknown): string | undefined {
  if (typeof value !== 'string') return `it is ${describeNonString(value)}, not a string`;
  if (value === '') return 'it is empty';
  if (value.length > MAX_ID_LENGTH)
    return `it is ${value.length} UTF-16 code units long, more than the limit of ${MAX_ID_LENGTH} (MAX_ID_LENGTH)`;
  if (!isWellFormedString(value)) return `it contains a lone UTF-16 surrogate at index ${value.search(LONE_SURROGATE)} (not valid Unicode)`;
  const control = value.search(CONTROL);
  if (control >= 0)
    return `it contains the control character U+${value.charCodeAt(control).toString(16).toUpperCase().padStart(4, '0')} at index ${control}`;
  return undefined;
}

/**
 * Fails with `InvalidArgumentError` naming `field` unless `value` is a valid identifier: a
 * non-empty string of at most `MAX_ID_LENGTH` UTF-16 code units, well-formed (no lone
 * surrogates), without NUL or other control characters (U+0000–U+001F, U+007F–U+009F).
 *
 * Every built-in store calls it (through `assertSessionKey`) at the top of each method, so
 * distinct valid ids can never meet in storage (a lone surrogate would become U+FFFD in UTF-8).
 * Third-party stores should do the same.
 */
export function assertIdentifier(field: IdentifierField, value: unknown): asserts value is string {
  const problem = problemOf(value);
  if (problem === undefined) return;
  const shown = typeof value === 'string' ? ` ${previewString(value)}` : '';
  throw new InvalidArgumentError(
    `Invalid ${field}${shown}: ${problem}. The ${field} must be a non-empty string of at most ${MAX_ID_LENGTH} ` +
      'UTF-16 code units, well-formed Unicode, without control characters; map other ids to such strings ' +
      '(e.g. base64url of their bytes) before passing them to replan.',
  );
}

/** Fails with `InvalidArgumentError` unless `key` is an object whose `appName` and `userId` are valid identifiers. */
export function assertUserKey(key: { readonly appName: string; readonly userId: string }): void {
  if (typeof key !== 'object' || key === null)
    throw new InvalidArgumentError(`A session key must be an object { appName, userId, id }, got ${describeNonString(key)}.`);
  assertIdentifier('appName', key.appName);
  assertIdentifier('userId', key.userId);
}

/** Fails with `InvalidArgumentError` unless `appName`, `userId` and `id` of `key` are valid identifiers. */
export function assertSessionKey(key: SessionKey): void {
  assertUserKey(key);
  assertIdentifier('session id', key.id);
}
