import type { Run } from '@replan/core';
import { UI_MESSAGE_STREAM_HEADERS } from 'ai';
import { toSSE } from './identified-chunks.js';
import { resumeUIMessageStream, type ResumeUIMessageStreamOptions } from './resume-ui-message-stream.js';
import { toUIMessageStream, type ToUIMessageStreamOptions } from './to-ui-message-stream.js';
import type { ReplanUIChunk } from './ui-data-parts.js';

/** What a streamed `Response` carries besides the stream. */
export interface UIStreamResponseInit {
  readonly status?: number;
  readonly headers?: ConstructorParameters<typeof Headers>[0];
}

/**
 * A UI message stream as a server-sent events `Response` (the AI SDK's wire format, with each
 * chunk's id as the event's `id:` line): return it from a Next.js route handler or Hono, or write it
 * with `writeUIStreamResponse` in `node:http`.
 */
export function uiMessageStreamResponse(stream: ReadableStream<ReplanUIChunk>, init: UIStreamResponseInit = {}): Response {
  const headers = new Headers(UI_MESSAGE_STREAM_HEADERS);
  for (const [name, value] of new Headers(init.headers)) headers.set(name, value);
  return new Response(toSSE(stream), { status: init.status ?? 200, headers });
}

/** `toUIMessageStream(run, options)` as a `Response` (see `uiMessageStreamResponse`); the session argument is optional. */
export function createUIMessageStreamResponse(
  run: Run,
  options: (ToUIMessageStreamOptions & UIStreamResponseInit) | UIStreamResponseInit = {},
): Response {
  return uiMessageStreamResponse(toUIMessageStream(run, 'sessionId' in options ? options : undefined), options);
}

/**
 * `resumeUIMessageStream(options)` as a `Response`, for the AI SDK client's reconnect route
 * (`GET <api>/<chat id>/stream`). `after` defaults to the request's `Last-Event-ID` header when a
 * `request` is given.
 */
export function resumeUIMessageStreamResponse(
  options: ResumeUIMessageStreamOptions & UIStreamResponseInit & { readonly request?: Request },
): Response {
  const after = options.after ?? options.request?.headers.get('last-event-id') ?? undefined;
  const signal = options.signal ?? options.request?.signal;
  return uiMessageStreamResponse(
    resumeUIMessageStream({ ...options, ...(after ? { after } : {}), ...(signal ? { signal } : {}) }),
    options,
  );
}
