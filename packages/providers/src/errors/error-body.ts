/** The useful fields of an error body, whatever shape the server used. */
export interface ErrorFacts {
  readonly message: string;
  readonly code?: string;
  readonly type?: string;
  /** A numeric status found inside the body (mid-stream errors, Google's `code`, LiteLLM's string codes). */
  readonly status?: number;
  /** A retry delay found inside the body (Google's `RetryInfo.retryDelay`, "try again in 1.5s"), in seconds. */
  readonly retryAfter?: number;
}

const MAX_MESSAGE = 2000;

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Parses a body as JSON when it is JSON; otherwise returns the text (or undefined when empty). */
export function parseBody(text: string): unknown {
  const trimmed = text.trim();
  if (!trimmed) return undefined;
  try {
    return JSON.parse(trimmed);
  } catch {
    return trimmed;
  }
}

/**
 * Finds the message, code and type in an error body of any known shape: OpenAI's
 * `{error: {message, code, type}}`, `{error: "text"}`, a bare `{message}`, FastAPI's `{detail}`,
 * Google's `[{error: {code, message, status, details}}]`, LiteLLM's envelope (whose message embeds
 * the upstream body), or plain text/HTML.
 */
export function errorFacts(body: unknown): ErrorFacts | undefined {
  if (body === undefined || body === null) return undefined;
  if (typeof body === 'string') return body.trim() ? { message: clip(stripHtml(body)) } : undefined;
  if (Array.isArray(body)) {
    for (const item of body) {
      const facts = errorFacts(item);
      if (facts) return facts;
    }
    return undefined;
  }
  if (!isRecord(body)) return { message: clip(String(body)) };

  const inner = body.error;
  if (typeof inner === 'string' && inner.trim()) return withTop(body, { message: clip(inner) });
  if (isRecord(inner)) {
    const facts = errorFacts(inner);
    if (facts) return withTop(body, facts);
  }

  const message = textOf(body.message) ?? textOf(body.detail) ?? textOf(body.error_description) ?? textOf(body.msg);
  const code = codeOf(body);
  const type = stringOf(body.type);
  const status = statusOf(body.code) ?? statusOf(body.status) ?? statusOf(body.status_code);
  const retryAfter = retryDelayOf(body.details) ?? retryDelayOf(body.metadata) ?? retryHintOf(message);
  if (message === undefined && code === undefined && type === undefined) {
    const text = JSON.stringify(body);
    return text === '{}' ? undefined : { message: clip(text) };
  }
  return {
    message: clip(message ?? code ?? type ?? 'unknown error'),
    ...(code !== undefined ? { code } : {}),
    ...(type !== undefined ? { type } : {}),
    ...(status !== undefined ? { status } : {}),
    ...(retryAfter !== undefined ? { retryAfter } : {}),
  };
}

/** Top-level `code`/`type` next to a nested error fill what the nested one lacks. */
function withTop(body: Record<string, unknown>, facts: ErrorFacts): ErrorFacts {
  const code = facts.code ?? codeOf(body);
  const type = facts.type ?? stringOf(body.type);
  const status = facts.status ?? statusOf(body.code) ?? statusOf(body.status);
  return {
    ...facts,
    ...(code !== undefined ? { code } : {}),
    ...(type !== undefined ? { type } : {}),
    ...(status !== undefined ? { status } : {}),
  };
}

function textOf(v: unknown): string | undefined {
  if (typeof v === 'string') return v.trim() ? v : undefined;
  if (Array.isArray(v)) {
    // FastAPI validation errors: [{loc, msg, type}]
    const parts = v.map((x) => (isRecord(x) ? (textOf(x.msg) ?? textOf(x.message) ?? JSON.stringify(x)) : String(x)));
    return parts.length ? parts.join('; ') : undefined;
  }
  if (isRecord(v)) return JSON.stringify(v);
  return undefined;
}

const isStatusLike = (v: unknown) => typeof v === 'number' || (typeof v === 'string' && /^\d+$/.test(v));

/** A symbolic code (`context_length_exceeded`, `RESOURCE_EXHAUSTED`) before a numeric one. */
function codeOf(body: Record<string, unknown>): string | undefined {
  if (typeof body.code === 'string' && body.code && !isStatusLike(body.code)) return body.code;
  if (typeof body.status === 'string' && body.status && !isStatusLike(body.status)) return body.status;
  return stringOf(body.code);
}

const stringOf = (v: unknown): string | undefined => (typeof v === 'string' && v ? v : typeof v === 'number' ? String(v) : undefined);

function statusOf(v: unknown): number | undefined {
  const n = typeof v === 'number' ? v : typeof v === 'string' && /^\d{3}$/.test(v) ? Number(v) : NaN;
  return n >= 400 && n <= 599 ? n : undefined;
}

/** Google's `details: [{"@type": "...RetryInfo", retryDelay: "17s"}]`. */
function retryDelayOf(v: unknown): number | undefined {
  const items = Array.isArray(v) ? v : isRecord(v) ? [v] : [];
  for (const item of items) {
    if (!isRecord(item)) continue;
    const delay = item.retryDelay ?? item.retry_after ?? item.retryAfter;
    if (typeof delay === 'number') return delay;
    if (typeof delay === 'string') {
      const m = /^(\d+(?:\.\d+)?)s$/.exec(delay.trim());
      if (m) return Number(m[1]);
    }
  }
  return undefined;
}

/** OpenAI's "Please try again in 1.5s" / "in 20ms" / "in 1m30s". */
export function retryHintOf(message: string | undefined): number | undefined {
  if (!message) return undefined;
  const m = /try again in\s+(?:(\d+)m(?!s))?\s*(?:(\d+(?:\.\d+)?)(ms|s))?/i.exec(message);
  if (!m || (!m[1] && !m[2])) return undefined;
  const minutes = m[1] ? Number(m[1]) * 60 : 0;
  const rest = m[2] ? (m[3] === 'ms' ? Number(m[2]) / 1000 : Number(m[2])) : 0;
  return minutes + rest;
}

function stripHtml(text: string): string {
  if (!/^\s*</.test(text)) return text.trim();
  const title = /<title>([^<]*)<\/title>/i.exec(text)?.[1];
  const plain = text
    .replace(/<(script|style)[\s\S]*?<\/\1>/gi, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return title && !plain.startsWith(title.trim()) ? `${title.trim()}: ${plain}` : plain;
}

const clip = (text: string) => (text.length > MAX_MESSAGE ? `${text.slice(0, MAX_MESSAGE)}…` : text);
