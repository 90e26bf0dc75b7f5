import { classifyError } from './classify-error.js';
import { errorFacts, parseBody } from './error-body.js';

type Fetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/** An error response's body as the server sent it. */
export interface CapturedBody {
  readonly text: string;
  /** Parsed JSON, or the text when it is not JSON. */
  readonly body: unknown;
}

/**
 * Error bodies by the `Headers` object of the response the SDK saw. The SDK keeps only
 * `body.error` of an OpenAI-shaped body and drops anything else (arrays, bare `{message}`, text),
 * but it hands the response's `Headers` to the error it throws — so the body is found again there.
 */
const captured = new WeakMap<Headers, CapturedBody>();

export const capturedBodyOf = (headers: unknown): CapturedBody | undefined =>
  headers instanceof Headers ? captured.get(headers) : undefined;

/** Seconds to wait from `retry-after-ms` / `retry-after` (seconds or an HTTP date). */
export function retryAfterOf(headers: Headers | undefined): number | undefined {
  if (!headers) return undefined;
  const ms = headers.get('retry-after-ms');
  if (ms && Number.isFinite(Number(ms))) return Number(ms) / 1000;
  const value = headers.get('retry-after');
  if (!value) return undefined;
  if (Number.isFinite(Number(value))) return Number(value);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, (date - Date.now()) / 1000);
}

/**
 * Wraps a `fetch` so every error response's body is kept for the typed error, and a 429 that
 * cannot succeed on retry (quota exhausted, request larger than the limit) carries
 * `x-should-retry: false` — the SDK keeps its own retries (`maxRetries`) for everything else.
 */
export function capturingFetch(inner: Fetch = globalThis.fetch): Fetch {
  return async (input, init) => {
    const response = await inner(input, init);
    if (response.ok) return response;
    const text = await response.text().catch(() => '');
    const headers = new Headers(response.headers);
    headers.delete('content-length');
    headers.delete('content-encoding');
    const body = parseBody(text);
    if (response.status === 429 && !headers.has('x-should-retry')) {
      if (classifyError(429, errorFacts(body), retryAfterOf(headers)).retryable === false) headers.set('x-should-retry', 'false');
    }
    const copy = new Response(text, { status: response.status, statusText: response.statusText, headers });
    captured.set(copy.headers, { text, body });
    return copy;
  };
}
