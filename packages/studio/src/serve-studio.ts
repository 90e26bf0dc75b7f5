import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { FileSessionStore, InMemorySessionStore, type PriceTable, type SessionStore } from '@replan/core';
import { StudioActions, type StudioRunners } from './actions/studio-actions.js';
import { StudioError } from './errors.js';
import { serveBlob } from './http/blob-route.js';
import { handleChange, handleRead, type ApiContext } from './http/api-routes.js';
import { RequestGuard } from './http/request-guard.js';
import { securityHeaders, sendError } from './http/responses.js';
import { serveStatic } from './http/static-files.js';
import { SessionChanges } from './live/session-changes.js';
import { runnerView } from './runner-models.js';
import { SessionReader } from './session-reader.js';

export interface StudioOptions {
  /** The sessions to show: any `SessionStore` (in-memory, file, PostgreSQL). */
  readonly store: SessionStore;
  /**
   * The app's runners (by `appName`, or a list). With them the page can start runs, answer
   * interrupts, resume and fork; without, it is a read-only viewer. They must use `store`.
   */
  readonly runners?: StudioRunners;
  /** Interface to bind (default `127.0.0.1`). Anything but loopback exposes your sessions: the token is then the only guard. */
  readonly host?: string;
  /** Port (default 0: a free one). */
  readonly port?: number;
  /** Apps to offer in the page's filter (stores other than the file store cannot list them). */
  readonly apps?: readonly string[];
  /** Users to offer in the page's filter, for each app. */
  readonly users?: readonly string[];
  /** The token the URL carries (default: 32 random bytes per start). */
  readonly token?: string;
  /** Re-read interval for stores that cannot signal changes (default 1000 ms). */
  readonly pollMs?: number;
  /**
   * Prices per model id (as the Runner's `prices`): with them the session view shows each step's and
   * the session's cost, priced from the model id stored with each model response.
   */
  readonly prices?: PriceTable;
}

export interface StudioHandle {
  /** The page's address, token included: open it in a browser (`http://127.0.0.1:<port>/?token=…`). */
  readonly url: string;
  /** The bound port. */
  readonly port: number;
  /** Stops serving, ends live streams and aborts the runs the studio started. The store stays open. */
  close(): Promise<void>;
}

function storeKindOf(store: SessionStore): string {
  if (store instanceof FileSessionStore) return 'file';
  if (store instanceof InMemorySessionStore) return 'memory';
  return store.constructor?.name ?? 'custom';
}

const urlHost = (host: string) => (host.includes(':') ? `[${host}]` : host);

/**
 * Serves the studio: a local web page over `store` (sessions, plans, live timeline, state at any
 * event) that, given `runners`, can also start runs, answer interrupts, resume and fork.
 *
 * Security: loopback by default; every read of session data and every change needs the
 * per-start token (sent by the page as the `x-replan-token` header); `Host` must be a loopback
 * name with this port (DNS rebinding) and a foreign `Origin` is refused; the page has a strict
 * Content-Security-Policy and renders model and tool text as text.
 */
export async function serveStudio(options: StudioOptions): Promise<StudioHandle> {
  if (!options?.store)
    throw new StudioError('configuration', 'serveStudio needs a store: serveStudio({ store: new FileSessionStore({ dir }) }).');
  const host = options.host ?? '127.0.0.1';
  const token = options.token ?? randomBytes(32).toString('base64url');
  if (token.length < 16) throw new StudioError('configuration', 'The studio token must be at least 16 characters.');
  const reader = new SessionReader(options.store);
  const changes = new SessionChanges(options.store, options.pollMs !== undefined ? { pollMs: options.pollMs } : {}, (session) =>
    reader.remember(session),
  );
  const actions = new StudioActions(options.store, options.runners, reader, changes);
  const ctx: ApiContext = {
    store: options.store,
    reader,
    actions,
    changes,
    hints: { ...(options.apps ? { apps: options.apps } : {}), ...(options.users ? { users: options.users } : {}) },
    storeKind: storeKindOf(options.store),
    runners: (Array.isArray(options.runners) ? options.runners : Object.values(options.runners ?? {})).map(runnerView),
    ...(options.prices ? { prices: options.prices } : {}),
  };
  let guard: RequestGuard | undefined;

  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    securityHeaders(response);
    if (!guard) throw StudioError.request(503, 'The studio is starting.');
    guard.checkOrigin(request);
    const url = new URL(request.url ?? '/', 'http://studio.invalid');
    const blob = /^\/api\/blobs\/([^/]*)$/.exec(url.pathname);
    if (blob) {
      guard.checkApi(request);
      if (request.method !== 'GET') throw StudioError.request(405, 'Blobs are read with GET.');
      return serveBlob(options.store, reader, blob[1] ?? '', url.searchParams, response);
    }
    const api = /^\/api\/([a-z]+)$/.exec(url.pathname);
    if (!api) {
      if (request.method !== 'GET' && request.method !== 'HEAD') throw StudioError.request(405, 'Only GET for the page.');
      if (await serveStatic(url.pathname, response)) return;
      throw StudioError.request(404, 'Not found.');
    }
    guard.checkApi(request);
    const route = api[1] ?? '';
    if (request.method === 'GET') return handleRead(ctx, route, url.searchParams, request, response);
    if (request.method === 'POST') {
      guard.checkChange(request);
      return handleChange(ctx, route, request, response);
    }
    throw StudioError.request(405, 'Use GET to read and POST to act.');
  };

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => sendError(response, error));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  guard = new RequestGuard(token, host, port);
  let closed: Promise<void> | undefined;
  return {
    url: `http://${urlHost(host)}:${port}/?token=${encodeURIComponent(token)}`,
    port,
    close() {
      closed ??= (async () => {
        changes.close();
        await actions.close();
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        });
      })();
      return closed;
    },
  };
}
