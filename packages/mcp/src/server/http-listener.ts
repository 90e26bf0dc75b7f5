import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { allowedHosts, type HttpGuard, isSessionId, refusal } from './http-guards.js';
import type { McpServerSdk } from './load-server-sdk.js';
import type { McpHttpEndpoint, McpHttpOptions } from './mcp-server-options.js';

const DEFAULT_MAX_BODY = 1024 * 1024;

/** Serves MCP over Streamable HTTP, one SDK server and transport per MCP session. */
export async function listenHttp(sdk: McpServerSdk, newServer: () => Server, options: McpHttpOptions): Promise<McpHttpEndpoint> {
  const host = options.host ?? '127.0.0.1';
  const path = options.path ?? '/mcp';
  const sessions = new Map<string, { transport: StreamableHTTPServerTransport; server: Server }>();
  let guard: HttpGuard | undefined;

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const refused = guard ? refusal(guard, req) : { status: 503, message: 'Starting.' };
    if (refused) return reply(res, refused.status, refused.message, refused.status === 401);
    if (new URL(req.url ?? '/', 'http://x').pathname !== path) return reply(res, 404, `Not found: the MCP endpoint is ${path}.`);
    const header = req.headers['mcp-session-id'];
    const sessionId = typeof header === 'string' ? header : undefined;
    if (sessionId !== undefined) {
      const session = isSessionId(sessionId) ? sessions.get(sessionId) : undefined;
      if (!session) return reply(res, 404, 'Unknown MCP session: initialize a new one.');
      return session.transport.handleRequest(req, res);
    }
    if (req.method !== 'POST') return reply(res, 400, 'Send an initialize request first (POST without mcp-session-id).');
    const transport = new sdk.StreamableHTTPServerTransport({
      sessionIdGenerator: randomUUID,
      maxRequestBodySize: options.maxBodyBytes ?? DEFAULT_MAX_BODY,
      onsessioninitialized: (id) => {
        sessions.set(id, { transport, server });
      },
      onsessionclosed: (id) => {
        sessions.delete(id);
      },
    });
    const server = newServer();
    transport.onclose = () => {
      if (transport.sessionId !== undefined) sessions.delete(transport.sessionId);
    };
    await server.connect(transport);
    await transport.handleRequest(req, res);
    // A first request that did not initialize a session leaves nothing behind.
    if (transport.sessionId === undefined) await server.close();
  };

  const http = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) reply(res, 500, `Internal error: ${error instanceof Error ? error.message : String(error)}`);
      else res.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(options.port ?? 0, host, () => resolve());
  });
  const port = (http.address() as AddressInfo).port;
  guard = {
    token: options.token,
    hosts: allowedHosts(host, port, options.allowedHosts ?? []),
    origins: new Set((options.allowedOrigins ?? []).map((o) => o.toLowerCase())),
  };
  const urlHost = host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${urlHost}:${port}${path}`,
    close: async () => {
      await Promise.allSettled([...sessions.values()].map((s) => s.server.close()));
      sessions.clear();
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}

function reply(res: ServerResponse, status: number, message: string, challenge = false): void {
  res.writeHead(status, { 'content-type': 'application/json', ...(challenge ? { 'www-authenticate': 'Bearer' } : {}) });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
}
