import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { StudioError } from '../errors.js';

/** The header the page sends the per-start token in. */
export const TOKEN_HEADER = 'x-replan-token';

const LOOPBACK_NAMES = ['127.0.0.1', 'localhost', '[::1]'];

/**
 * Checks where a request comes from, before anything else runs. DNS rebinding: a foreign site
 * whose name resolves to 127.0.0.1 still sends its own name in `Host`, so only loopback names
 * with our port (or the name the studio was bound to) pass. A page of another origin sends its
 * `Origin` (fetch, form posts) or `Sec-Fetch-Site: cross-site`; both are refused.
 */
export class RequestGuard {
  private readonly hosts: Set<string>;
  private readonly origins: Set<string>;

  constructor(
    private readonly token: string,
    host: string,
    port: number,
  ) {
    const names = new Set(LOOPBACK_NAMES);
    names.add(host.includes(':') && !host.startsWith('[') ? `[${host}]` : host);
    this.hosts = new Set([...names].map((n) => `${n}:${port}`));
    this.origins = new Set([...this.hosts].map((h) => `http://${h}`));
  }

  /** Every request: a known `Host`, no foreign `Origin`. */
  checkOrigin(request: IncomingMessage): void {
    const host = request.headers.host?.toLowerCase();
    if (!host || !this.hosts.has(host))
      throw StudioError.request(421, `Host "${host ?? ''}" is not this studio; open the URL it printed (loopback name and port).`);
    const origin = request.headers.origin;
    if (origin !== undefined && !this.origins.has(origin.toLowerCase()))
      throw StudioError.request(403, `Origin "${origin}" may not use this studio; only its own page may.`);
  }

  /**
   * The API (session data and every change): not from another site (a link from a web page may
   * open the page itself, which holds no data) and the per-start token, in the header.
   */
  checkApi(request: IncomingMessage): void {
    if (request.headers['sec-fetch-site'] === 'cross-site') throw StudioError.request(403, 'Cross-site requests may not use this studio.');
    const given = request.headers[TOKEN_HEADER];
    if (typeof given !== 'string' || !sameSecret(given, this.token))
      throw StudioError.request(401, `Missing or wrong ${TOKEN_HEADER} header: open the URL the studio printed (it carries the token).`);
  }

  /** A change also needs an `Origin` (browsers always send it with a POST): no blind cross-site writes. */
  checkChange(request: IncomingMessage): void {
    if (request.headers.origin === undefined) throw StudioError.request(403, 'A change needs an Origin header (the studio page sends it).');
    const type = request.headers['content-type'] ?? '';
    if (!type.startsWith('application/json')) throw StudioError.request(415, 'Send the body as application/json.');
  }
}

function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
