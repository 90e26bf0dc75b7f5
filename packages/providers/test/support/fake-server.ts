import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach } from 'vitest';

/** A request the fake server received. */
export interface Received {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingMessage['headers'];
  readonly body: any;
}

/** A named SSE event (`event: name`), as the Responses API sends them. */
export interface NamedEvent {
  readonly event: string;
  readonly data: unknown;
}

export type Reply =
  | { readonly json: unknown; readonly status?: number; readonly headers?: Record<string, string> }
  | { readonly text: string; readonly status: number; readonly headers?: Record<string, string> }
  | {
      /** Objects are sent as `data: <json>`; strings are written as they are; `NamedEvent`s with their name. */
      readonly sse: readonly (unknown | string | NamedEvent)[];
      /** Append `data: [DONE]` (default true). */
      readonly done?: boolean;
      /** Keep the connection open after the events, sending nothing more. */
      readonly stall?: boolean;
      /** Delay between events, ms. */
      readonly delayMs?: number;
      readonly headers?: Record<string, string>;
    }
  | ((request: Received) => Reply);

const isNamed = (v: unknown): v is NamedEvent => typeof v === 'object' && v !== null && 'event' in v && 'data' in v;

/**
 * An OpenAI-compatible server on 127.0.0.1 (random port) that replays scripted replies in order —
 * JSON bodies, SSE streams, error bodies of any shape, stalls — and records every request.
 */
export class FakeServer {
  readonly received: Received[] = [];
  private readonly replies: Reply[] = [];

  private readonly server: Server = createServer((req, res) => void this.handle(req, res));
  /** Set once listening. */
  baseURL = '';

  static async start(): Promise<FakeServer> {
    const self = new FakeServer();
    await self.listen();
    return self;
  }

  async listen(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    const { port } = this.server.address() as AddressInfo;
    this.baseURL = `http://127.0.0.1:${port}/v1`;
  }

  /** Queues replies, one per request. */
  reply(...replies: Reply[]): this {
    this.replies.push(...replies);
    return this;
  }

  /** The body of the last request received. */
  get last(): any {
    return this.received.at(-1)?.body;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let raw = '';
    for await (const chunk of req) raw += chunk;
    const received: Received = {
      method: req.method ?? 'GET',
      path: req.url ?? '/',
      headers: req.headers,
      body: raw ? JSON.parse(raw) : undefined,
    };
    this.received.push(received);
    let reply = this.replies.shift();
    while (typeof reply === 'function') reply = reply(received);
    if (!reply) {
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: `fake server: no reply queued for request ${this.received.length}` } }));
      return;
    }
    if ('json' in reply) {
      res.writeHead(reply.status ?? 200, { 'content-type': 'application/json', ...reply.headers });
      res.end(JSON.stringify(reply.json));
      return;
    }
    if ('text' in reply) {
      res.writeHead(reply.status, { 'content-type': 'text/plain', ...reply.headers });
      res.end(reply.text);
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', ...reply.headers });
    res.flushHeaders();
    for (const event of reply.sse) {
      if (reply.delayMs) await new Promise((r) => setTimeout(r, reply.delayMs));
      if (res.destroyed) return;
      if (typeof event === 'string') res.write(event);
      else if (isNamed(event)) res.write(`event: ${event.event}\ndata: ${JSON.stringify(event.data)}\n\n`);
      else res.write(`data: ${JSON.stringify(event)}\n\n`);
    }
    if (reply.stall) return;
    if (reply.done !== false) res.write('data: [DONE]\n\n');
    res.end();
  }
}

/** A fake server for one test file: listening before its tests, closed after, requests cleared before each. */
export function useFakeServer(): FakeServer {
  const server = new FakeServer();
  beforeAll(() => server.listen());
  afterAll(() => server.close());
  beforeEach(() => {
    server.received.length = 0;
  });
  return server;
}
