import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/** Who may reach the endpoint: the bearer token (when one is set), and the Host and Origin values a request may carry. */
export interface HttpGuard {
  readonly token: string | undefined;
  /** Host header values accepted (host:port), lower case. */
  readonly hosts: ReadonlySet<string>;
  /** Origin header values accepted, lower case; a request without an Origin header (not a browser) passes. */
  readonly origins: ReadonlySet<string>;
}

/** Why a request is refused (status and message), or `undefined` when it may go on. `public` skips the token (the agent card). */
export function refusal(guard: HttpGuard, req: IncomingMessage, isPublic: boolean): { status: number; message: string } | undefined {
  // Host and Origin first: a page on another site (DNS rebinding) learns nothing, not even that a token is needed.
  const host = req.headers.host?.toLowerCase();
  if (host === undefined || !guard.hosts.has(host)) return { status: 403, message: 'Host not allowed: add it to allowedHosts.' };
  const origin = req.headers.origin?.toLowerCase();
  if (origin !== undefined && !guard.origins.has(origin)) return { status: 403, message: 'Origin not allowed: add it to allowedOrigins.' };
  if (guard.token === undefined || isPublic) return undefined;
  const header = req.headers.authorization ?? '';
  const given = Buffer.from(header.startsWith('Bearer ') ? header.slice('Bearer '.length) : '');
  const expected = Buffer.from(guard.token);
  if (given.length !== expected.length || !timingSafeEqual(given, expected))
    return { status: 401, message: 'Unauthorized: send "Authorization: Bearer <token>" with the token the server was given.' };
  return undefined;
}

/** The Host values a server answers to: its address and the loopback names, at its port, plus the ones given. */
export function allowedHosts(host: string, port: number, extra: readonly string[]): Set<string> {
  const names = new Set([host, 'localhost', '127.0.0.1', '[::1]'].map((h) => (h.includes(':') && !h.startsWith('[') ? `[${h}]` : h)));
  return new Set([...[...names].map((h) => `${h}:${port}`), ...extra.map((h) => h.toLowerCase())]);
}

/** Reads a request body up to `limit` bytes; `undefined` when it is larger (the caller answers 413). */
export async function readBody(req: IncomingMessage, limit: number): Promise<string | undefined> {
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > limit) return undefined;
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limit) return undefined;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}
