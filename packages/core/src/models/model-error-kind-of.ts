import { type ModelErrorKind, modelErrorOf } from '../errors/model-error.js';

const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EPIPE',
  'ETIMEDOUT',
]);

/** Statuses of a request the server refused as it is: bad, unknown model or path, too large, unsupported. */
const INVALID = new Set([400, 404, 405, 413, 415, 422]);

const fieldOf = (error: unknown, key: string): unknown =>
  typeof error === 'object' && error !== null ? (error as Record<string, unknown>)[key] : undefined;

/**
 * The `ModelErrorKind` of a failed model call: the `kind` of the `ModelError` that `error` is or
 * wraps; for an error of a model that does not throw `ModelError` (a plain `fetch`, another SDK),
 * read from its HTTP `status` (or `statusCode`) or its connection error `code`, in its cause chain.
 * `undefined` for an abort and for anything that is not a model's failure (a bug, a configuration error).
 */
export function modelErrorKindOf(error: unknown): ModelErrorKind | undefined {
  const typed = modelErrorOf(error);
  if (typed) return typed.kind;
  for (let e = error, depth = 0; e !== undefined && e !== null && depth < 8; e = fieldOf(e, 'cause'), depth++) {
    if (fieldOf(e, 'name') === 'AbortError') return undefined;
    const status = fieldOf(e, 'status') ?? fieldOf(e, 'statusCode');
    if (typeof status === 'number') return kindOfStatus(status);
    const code = fieldOf(e, 'code');
    if (typeof code === 'string' && (CONNECTION_CODES.has(code) || code.startsWith('UND_ERR_'))) return 'connection';
  }
  return undefined;
}

/** What an HTTP status says about a failed model call, or `undefined` for a status that is no failure. */
export function kindOfStatus(status: number): ModelErrorKind | undefined {
  if (status === 429 || status === 402) return 'rate_limit';
  if (status === 401 || status === 403) return 'auth';
  if (status === 408 || status === 504) return 'timeout';
  if (status === 503 || status === 529) return 'overloaded';
  if (status >= 500 && status <= 599) return 'server';
  if (INVALID.has(status)) return 'invalid_request';
  return undefined; // e.g. 409: a conflict says nothing of the request itself
}
