import { assertSessionKey, assertUserKey, jsonStateDelta } from '@replan/core/store-kit';
import { MemoryError } from '../memory-error.js';
import type { MemoryKind, MemoryList, MemoryScope, MemorySearch, MemorySource, NewMemory } from '../memory-store.js';

/** Size limits every store applies to what it is given. */
export interface MemoryLimits {
  /** The longest memory text (and search query), in UTF-8 bytes. Default 65,536 (64 KiB). */
  readonly maxTextBytes?: number;
  /** The largest `metadata`, as JSON in UTF-8 bytes. Default 65,536 (64 KiB). */
  readonly maxMetadataBytes?: number;
}

/** The limits in force, every field set. */
export type ResolvedLimits = Required<MemoryLimits>;

export const DEFAULT_LIMITS: ResolvedLimits = { maxTextBytes: 64 * 1024, maxMetadataBytes: 64 * 1024 };
/** Search `k` when none is given, and the most one search returns. */
export const DEFAULT_K = 5;
export const MAX_K = 1000;
/** List page size when none is given, and the largest page. */
export const DEFAULT_PAGE = 50;
export const MAX_PAGE = 1000;

const KINDS: readonly MemoryKind[] = ['fact', 'episode', 'plan'];

/** Checks the configured limits (positive safe integers), filling in the defaults. */
export function resolveLimits(store: string, limits: MemoryLimits | undefined): ResolvedLimits {
  const out = { ...DEFAULT_LIMITS };
  for (const field of Object.keys(DEFAULT_LIMITS) as (keyof ResolvedLimits)[]) {
    const value = limits?.[field];
    if (value === undefined) continue;
    if (!Number.isSafeInteger(value) || value < 1)
      throw new MemoryError('invalid', `${store}: limits.${field} must be a positive integer (bytes), got ${String(value)}.`);
    out[field] = value;
  }
  return out;
}

/** Runs a core identifier check, turning its `InvalidArgumentError` into `MemoryError('invalid')`. */
function asMemoryError(check: () => void): void {
  try {
    check();
  } catch (error) {
    throw new MemoryError('invalid', (error as Error).message, { cause: error });
  }
}

/** A checked scope: `userId` is `undefined` for the app's scope. */
export interface Scope {
  readonly appName: string;
  readonly userId: string | undefined;
}

/**
 * Checks a scope with core's identifier rules (non-empty, at most 256 UTF-16 code units, no lone
 * surrogates, no control characters). `userId` absent or `undefined` is the app's scope; any other
 * non-string (`null` included) is refused, so a missing user never silently becomes the app.
 */
export function checkScope(scope: MemoryScope): Scope {
  if (typeof scope !== 'object' || scope === null)
    throw new MemoryError('invalid', 'A memory scope must be an object: { appName } or { appName, userId }.');
  const { appName, userId } = scope as { appName: unknown; userId?: unknown };
  if (userId === undefined) asMemoryError(() => assertUserKey({ appName: appName as string, userId: 'app' }));
  else asMemoryError(() => assertUserKey({ appName: appName as string, userId: userId as string }));
  return { appName: appName as string, userId: userId as string | undefined };
}

/** A checked user (for `forgetUser`): both fields required. */
export function checkUser(user: { readonly appName: string; readonly userId: string }): Scope {
  if (typeof user !== 'object' || user === null || user.userId === undefined)
    throw new MemoryError('invalid', 'forgetUser takes { appName, userId } (both required; it never deletes the app scope).');
  return checkScope(user);
}

/** A map key that tells every scope apart (JSON of the pair; app scope has `null`). */
export function scopeKey(scope: Scope): string {
  return JSON.stringify([scope.appName, scope.userId ?? null]);
}

function utf8Bytes(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

function checkText(what: string, text: unknown, limits: ResolvedLimits): string {
  if (typeof text !== 'string') throw new MemoryError('invalid', `The memory ${what} must be a string, got ${typeof text}.`);
  const bytes = utf8Bytes(text);
  if (bytes > limits.maxTextBytes)
    throw new MemoryError(
      'too_large',
      `The memory ${what} is ${bytes} bytes (UTF-8), over the store's limit of ${limits.maxTextBytes} (limits.maxTextBytes): store a summary, or raise the limit.`,
    );
  if (!(text as string & { isWellFormed(): boolean }).isWellFormed())
    throw new MemoryError('invalid', `The memory ${what} has a lone UTF-16 surrogate: pass well-formed text (text.toWellFormed()).`);
  // PostgreSQL's text type cannot hold U+0000; refused in every store so all stores keep the same texts.
  if (text.includes('\u0000')) throw new MemoryError('invalid', `The memory ${what} contains NUL (U+0000): remove it.`);
  return text;
}

/** Checks `kinds` (undefined = all); an empty list is refused (it would match nothing, most likely a bug). */
export function checkKinds(kinds: readonly MemoryKind[] | undefined): readonly MemoryKind[] | undefined {
  if (kinds === undefined) return undefined;
  if (!Array.isArray(kinds) || kinds.length === 0 || kinds.some((k) => !KINDS.includes(k)))
    throw new MemoryError('invalid', `kinds must be a non-empty array of ${KINDS.map((k) => `"${k}"`).join(', ')}.`);
  return kinds;
}

function checkCount(what: string, value: number | undefined, fallback: number, max: number): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value < 1 || value > max)
    throw new MemoryError('invalid', `${what} must be an integer from 1 to ${max}, got ${String(value)}.`);
  return value;
}

/** Source ids follow the session-id rules; the message names the field. */
function checkSource(source: MemorySource | undefined): MemorySource | undefined {
  if (source === undefined) return undefined;
  if (typeof source !== 'object' || source === null)
    throw new MemoryError('invalid', 'source must be an object { sessionId, eventId?, invocationId? }.');
  const out: { sessionId: string; eventId?: string; invocationId?: string } = { sessionId: source.sessionId };
  for (const field of ['sessionId', 'eventId', 'invocationId'] as const) {
    const value = source[field];
    if (value === undefined && field !== 'sessionId') continue;
    try {
      assertSessionKey({ appName: 'a', userId: 'u', id: value as string });
    } catch (error) {
      throw new MemoryError('invalid', `source.${field}: ${(error as Error).message}`, { cause: error });
    }
    out[field] = value as string;
  }
  return out;
}

/**
 * Checks metadata with core's JSON-state rules (strings, finite numbers, booleans, null, arrays and
 * plain objects; no cycles, functions, BigInt, Dates …) and returns a deep copy, so a caller that
 * mutates its object later does not change what was stored.
 */
function checkMetadata(metadata: unknown, limits: ResolvedLimits): Record<string, unknown> | undefined {
  if (metadata === undefined) return undefined;
  if (typeof metadata !== 'object' || metadata === null || Array.isArray(metadata))
    throw new MemoryError('invalid', 'metadata must be a plain object of JSON values.');
  try {
    jsonStateDelta({ metadata });
  } catch (error) {
    throw new MemoryError('invalid', `metadata is not JSON: ${(error as Error).message}`, { cause: error });
  }
  const json = JSON.stringify(metadata);
  const bytes = utf8Bytes(json);
  if (bytes > limits.maxMetadataBytes)
    throw new MemoryError(
      'too_large',
      `The memory's metadata is ${bytes} bytes as JSON, over the store's limit of ${limits.maxMetadataBytes} (limits.maxMetadataBytes).`,
    );
  return JSON.parse(json) as Record<string, unknown>;
}

/** A checked `put` input, copied. */
export interface CheckedMemory {
  readonly scope: Scope;
  readonly kind: MemoryKind;
  readonly text: string;
  readonly metadata: Record<string, unknown> | undefined;
  readonly source: MemorySource | undefined;
}

export function checkNewMemory(memory: NewMemory, limits: ResolvedLimits): CheckedMemory {
  if (typeof memory !== 'object' || memory === null)
    throw new MemoryError('invalid', 'put takes { scope, kind, text, metadata?, source? }.');
  const scope = checkScope(memory.scope);
  if (!KINDS.includes(memory.kind))
    throw new MemoryError(
      'invalid',
      `kind must be one of ${KINDS.map((k) => `"${k}"`).join(', ')}, got ${JSON.stringify(String(memory.kind)).slice(0, 60)}.`,
    );
  const text = checkText('text', memory.text, limits);
  if (text.trim() === '') throw new MemoryError('invalid', 'The memory text is empty: there is nothing to remember or search.');
  return { scope, kind: memory.kind, text, metadata: checkMetadata(memory.metadata, limits), source: checkSource(memory.source) };
}

/** A checked search; `query` is trimmed (a blank query finds nothing). */
export interface CheckedSearch {
  readonly scope: Scope;
  readonly query: string;
  readonly k: number;
  readonly kinds: readonly MemoryKind[] | undefined;
}

export function checkSearch(search: MemorySearch, limits: ResolvedLimits): CheckedSearch {
  if (typeof search !== 'object' || search === null) throw new MemoryError('invalid', 'search takes { scope, query, k?, kinds? }.');
  const scope = checkScope(search.scope);
  const query = checkText('query', search.query, limits).trim();
  return { scope, query, k: checkCount('k', search.k, DEFAULT_K, MAX_K), kinds: checkKinds(search.kinds) };
}

/** A checked list request. */
export interface CheckedList {
  readonly scope: Scope;
  readonly kinds: readonly MemoryKind[] | undefined;
  readonly limit: number;
  /** The last id of the previous page. */
  readonly after: string | undefined;
}

export function checkList(list: MemoryList, isId: (value: string) => boolean): CheckedList {
  if (typeof list !== 'object' || list === null) throw new MemoryError('invalid', 'list takes { scope, kinds?, limit?, cursor? }.');
  const scope = checkScope(list.scope);
  const { cursor } = list;
  if (cursor !== undefined && (typeof cursor !== 'string' || !isId(cursor)))
    throw new MemoryError('invalid', "The list cursor is not one this store returned: pass a previous page's nextCursor unchanged.");
  return { scope, kinds: checkKinds(list.kinds), limit: checkCount('limit', list.limit, DEFAULT_PAGE, MAX_PAGE), after: cursor };
}

/** Checks the id given to `get`/`delete`: a string (any string; one the store never made is simply not found). */
export function checkId(id: unknown): string {
  if (typeof id !== 'string') throw new MemoryError('invalid', `A memory id must be a string, got ${id === null ? 'null' : typeof id}.`);
  return id;
}
