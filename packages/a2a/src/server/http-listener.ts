import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AgentCard } from '@a2a-js/sdk';
import { allowedHosts, type HttpGuard, readBody, refusal } from './http-guards.js';
import type { A2aServerSdk } from './load-server-sdk.js';
import type { ReplanTaskHandler } from './task-handler.js';

export const AGENT_CARD_PATH = '/.well-known/agent-card.json';

/** Where and how `listen` binds (resolved). */
export interface ListenSettings {
  readonly host: string;
  readonly port: number;
  readonly path: string;
  readonly token: string | undefined;
  readonly allowedHosts: readonly string[];
  readonly allowedOrigins: readonly string[];
  readonly maxBodyBytes: number;
}

/** The JSON-RPC endpoint (POST `path`) and the agent card (GET), over node:http with the guards of `HttpGuard`. */
export async function listenHttp(
  sdk: A2aServerSdk,
  handler: ReplanTaskHandler,
  cardAt: (url: string) => AgentCard,
  settings: ListenSettings,
): Promise<{ url: string; card: AgentCard; close(): Promise<void> }> {
  const transport = new sdk.JsonRpcTransportHandler(handler);
  let guard: HttpGuard | undefined;
  let cardJson = '';

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const pathname = new URL(req.url ?? '/', 'http://x').pathname;
    const isCard = req.method === 'GET' && pathname === AGENT_CARD_PATH;
    const refused = guard ? refusal(guard, req, isCard) : { status: 503, message: 'Starting.' };
    if (refused) return reply(res, refused.status, rpcError(-32000, refused.message), refused.status === 401);
    if (isCard) return reply(res, 200, cardJson);
    if (pathname !== settings.path || req.method !== 'POST')
      return reply(res, 404, rpcError(-32000, `Not found: POST JSON-RPC to ${settings.path}; the agent card is at ${AGENT_CARD_PATH}.`));
    const body = await readBody(req, settings.maxBodyBytes);
    if (body === undefined)
      return reply(res, 413, rpcError(-32600, `The request is over ${settings.maxBodyBytes} bytes: send a smaller message.`));
    let request: Record<string, unknown>;
    try {
      request = JSON.parse(body) as Record<string, unknown>;
    } catch {
      return reply(res, 200, rpcError(-32700, 'The body is not JSON.'));
    }
    const context = new sdk.ServerCallContext({ requestedVersion: header(req, 'a2a-version') ?? '1.0' });
    const response = await transport.handle(request, context);
    if (!isAsyncIterable(response)) return reply(res, 200, JSON.stringify(response));
    await stream(sdk, response, request.id, res);
  };

  const http = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) reply(res, 500, rpcError(-32603, `Internal error: ${error instanceof Error ? error.message : String(error)}`));
      else res.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(settings.port, settings.host, () => resolve());
  });
  const port = (http.address() as AddressInfo).port;
  guard = {
    token: settings.token,
    hosts: allowedHosts(settings.host, port, settings.allowedHosts),
    origins: new Set(settings.allowedOrigins.map((o) => o.toLowerCase())),
  };
  const urlHost = settings.host.includes(':') ? `[${settings.host}]` : settings.host;
  const url = `http://${urlHost}:${port}${settings.path}`;
  const card = cardAt(url);
  cardJson = JSON.stringify(sdk.AgentCard.toJSON(card));
  return {
    url,
    card,
    close: async () => {
      await handler.close();
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}

/** Server-sent events, one per update; a client that goes away stops the stream, not the run. */
async function stream(sdk: A2aServerSdk, events: AsyncGenerator<unknown>, id: unknown, res: ServerResponse): Promise<void> {
  const iterator = events[Symbol.asyncIterator]();
  let first: IteratorResult<unknown>;
  try {
    first = await iterator.next();
  } catch (error) {
    return reply(res, 200, JSON.stringify({ jsonrpc: '2.0', id: id ?? null, error: sdk.JsonRpcTransportHandler.mapToJSONRPCError(error) }));
  }
  res.writeHead(200, {
    'content-type': 'text/event-stream',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
  });
  res.on('close', () => {
    void iterator.return?.(undefined);
  });
  try {
    if (!first.done) res.write(sdk.formatSSEEvent(first.value as never));
    for (let next = await iterator.next(); !next.done && !res.destroyed; next = await iterator.next())
      res.write(sdk.formatSSEEvent(next.value as never));
  } catch (error) {
    if (!res.writableEnded)
      res.write(
        sdk.formatSSEErrorEvent({
          jsonrpc: '2.0',
          id: (id ?? null) as never,
          error: sdk.JsonRpcTransportHandler.mapToJSONRPCError(error),
        } as never),
      );
  } finally {
    if (!res.writableEnded) res.end();
  }
}

const isAsyncIterable = (value: unknown): value is AsyncGenerator<unknown> =>
  typeof value === 'object' && value !== null && Symbol.asyncIterator in value;

const header = (req: IncomingMessage, name: string): string | undefined => {
  const value = req.headers[name];
  return typeof value === 'string' ? value : undefined;
};

const rpcError = (code: number, message: string) => JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null });

function reply(res: ServerResponse, status: number, body: string, challenge = false): void {
  res.writeHead(status, { 'content-type': 'application/json', ...(challenge ? { 'www-authenticate': 'Bearer' } : {}) });
  res.end(body);
}
