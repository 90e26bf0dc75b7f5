import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/** Who may reach the HTTP endpoint: the bearer token, and the Host and Origin values a request may carry. */
export interface HttpGuard {
  readonly token: string;
  /** Host header values accepted (host:port), lower case. */
  readonly hosts: ReadonlySet<string>;
  /** Origin header values accepted, lower case; a request without an Origin header (not a browser) passes. */
  readonly origins: ReadonlySet<string>;
}

/** Why a request is refused (status and message), or `undefined` when it may go on. */
export function refusal(guard: HttpGuard, req: IncomingMessage): { status: number; message: string } | undefined {
  // Host and Origin first: a page on another site (DNS rebinding) learns nothing, not even that a token is needed.
  const host = req.headers.host?.toLowerCase();
  if (host === undefined || !guard.hosts.has(host)) return { status: 403, message: 'Host not allowed: add it to allowedHosts.' };
  const origin = req.headers.origin?.toLowerCase();
  if (origin !== undefined && !guard.origins.has(origin)) return { status: 403, message: 'Origin not allowed: add it to allowedOrigins.' };
  const header = req.headers.authorization ?? '';
  const given = Buffer.from(header.startsWith('Bearer ') ? header.slice('Bearer '.length) : '');
  const expected = Buffer.from(guard.token);
  if (given.length !== expected.length || !timingSafeEqual(given, expected))
    return { status: 401, message: 'Unauthorized: send "Authorization: Bearer <token>" with the token the server was given.' };
  return undefined;
}

/** The Host values a loopback server answers to: its address and `localhost`, at its port, plus the ones given. */
export function allowedHosts(host: string, port: number, extra: readonly string[]): Set<string> {
  const names = new Set([host, 'localhost', '127.0.0.1', '[::1]'].map((h) => (h.includes(':') && !h.startsWith('[') ? `[${h}]` : h)));
  return new Set([...[...names].map((h) => `${h}:${port}`), ...extra.map((h) => h.toLowerCase())]);
}

/** MCP session ids this server hands out: UUIDs. Anything else is refused before a lookup. */
export const isSessionId = (value: string): boolean => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(value);
