import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { buildTestServer } from './mcp-test-server-tools.mjs';

/** The test MCP server over Streamable HTTP on 127.0.0.1 (random port), one McpServer per session. */
export interface TestHttpServer {
  readonly url: string;
  /** Forgets every session, as a restarted server does: the next request with an old id gets 404. */
  forgetSessions(): void;
  readonly sessionCount: () => number;
  close(): Promise<void>;
}

export async function startTestHttpServer(effectsFile: string): Promise<TestHttpServer> {
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  const http: Server = createServer(async (req, res) => {
    const id = req.headers['mcp-session-id'];
    const known = typeof id === 'string' ? sessions.get(id) : undefined;
    if (known) return known.handleRequest(req, res);
    if (typeof id === 'string') {
      res
        .writeHead(404, { 'content-type': 'application/json' })
        .end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32001, message: 'Session not found' }, id: null }));
      return;
    }
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (sid) => void sessions.set(sid, transport),
    });
    const server = buildTestServer({ name: 'http-server', effectsFile, onCrash: () => forgetSessions() });
    await server.connect(transport);
    await transport.handleRequest(req, res);
  });
  const forgetSessions = () => {
    for (const t of sessions.values()) void t.close();
    sessions.clear();
  };
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    forgetSessions,
    sessionCount: () => sessions.size,
    close: async () => {
      forgetSessions();
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
