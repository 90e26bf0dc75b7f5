import type { IncomingMessage, ServerResponse } from 'node:http';
import { StudioError } from '../errors.js';

/** Strict: only the studio's own files run, nothing inline, nothing from elsewhere, never framed. */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' blob:", // images and files of a session: fetched with the token, shown from object URLs
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

export function securityHeaders(response: ServerResponse): void {
  response.setHeader('Content-Security-Policy', CONTENT_SECURITY_POLICY);
  response.setHeader('X-Content-Type-Options', 'nosniff');
  response.setHeader('Referrer-Policy', 'no-referrer');
  response.setHeader('Cross-Origin-Resource-Policy', 'same-origin');
  response.setHeader('X-Frame-Options', 'DENY');
}

export function sendJson(response: ServerResponse, status: number, body: unknown): void {
  const data = JSON.stringify(body);
  response.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' });
  response.end(data);
}

export function sendError(response: ServerResponse, error: unknown): void {
  if (response.headersSent) {
    response.end();
    return;
  }
  if (error instanceof StudioError) sendJson(response, error.status, { error: error.name, message: error.message });
  else {
    const e = error instanceof Error ? error : new Error(String(error));
    const kind = (e as { kind?: unknown }).kind;
    const status =
      e.name === 'InvalidArgumentError' ||
      // An unknown interrupt id, a value that does not fit its interrupt (an invalid plan review
      // answer: the review stays open), nothing to resume.
      (e.name === 'ResumeError' && kind !== 'open_interrupts')
        ? 400
        : e.name === 'SessionBusyError' ||
            e.name === 'SessionExistsError' ||
            e.name === 'ConcurrentUpdateError' ||
            // New input for a session waiting on interrupts: its message names them; answer them first.
            e.name === 'ResumeError' ||
            // A child session: its message names the root session and interrupt ids to answer instead.
            (e.name === 'ChildSessionError' && kind === 'resume')
          ? 409
          : 500;
    // An error with a kind (ResumeError, ChildSessionError …) says it, so a client can tell them apart.
    sendJson(response, status, { error: e.name, ...(typeof kind === 'string' ? { kind } : {}), message: e.message });
  }
}

const MAX_BODY = 1024 * 1024;

/** Reads a JSON object body (at most 1 MiB). */
export async function readJsonBody(request: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY) throw StudioError.request(413, 'Request body too large (1 MiB at most).');
    chunks.push(chunk as Buffer);
  }
  let body: unknown;
  try {
    body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}');
  } catch {
    throw StudioError.request(400, 'The body is not valid JSON.');
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw StudioError.request(400, 'The body must be a JSON object.');
  return body as Record<string, unknown>;
}
