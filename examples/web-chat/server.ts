import { existsSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FileSessionStore, type SessionStore } from '@replan/core';
import {
  createUIMessageStreamResponse,
  resumeFromApprovals,
  resumeUIMessageStreamResponse,
  UIStreamError,
  writeUIStreamResponse,
} from '@replan/ai-sdk';
import type { UIMessage } from 'ai';
import { build } from 'esbuild';
import { APP, tripRunner } from './trip-agent.js';

/** One user in this example; a real app takes it from its login. */
const USER = 'demo-user';

export interface WebChatOptions {
  /** Default 0: any free port on 127.0.0.1. */
  readonly port?: number;
  /** Where sessions are kept (default: a file store in a new temporary directory). */
  readonly store?: SessionStore;
  /** How long the flight search takes (default 1500 ms): time to reload the page mid-run. */
  readonly searchMs?: number;
}

export interface WebChat {
  readonly url: string;
  readonly store: SessionStore;
  close(): Promise<void>;
}

/**
 * The page's script: page.ts and the AI SDK's `AbstractChat` bundled for the browser. From the sources
 * (tsx, vitest) that is page.ts; an app that compiled this example with tsc has page.js beside this file
 * (the current-majors consumer test does, with AI SDK 7), and the `ai` its bundle takes is that app's.
 */
async function bundlePage(): Promise<string> {
  const page = ['./page.ts', './page.js'].map((f) => fileURLToPath(new URL(f, import.meta.url))).find((f) => existsSync(f));
  if (!page) throw new Error(`examples/web-chat: no page.ts or page.js beside ${fileURLToPath(import.meta.url)}`);
  const result = await build({
    entryPoints: [page],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    write: false,
    logLevel: 'silent',
  });
  return result.outputFiles[0]?.text ?? '';
}

const PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>replan web chat</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>
body{font:15px/1.45 system-ui,sans-serif;max-width:760px;margin:24px auto;padding:0 16px;color:#1d2330}
h1{font-size:20px} .msg{border:1px solid #dde2ea;border-radius:8px;padding:10px 14px;margin:10px 0}
.user{background:#f3f6fb} .label{font-size:12px;color:#667;text-transform:uppercase;letter-spacing:.04em}
ol{margin:4px 0 8px 20px;padding:0} .step{margin:2px 0} .status{display:inline-block;min-width:64px;font-size:12px;border-radius:4px;padding:0 6px;margin-right:6px;text-align:center}
.pending{background:#eee}.running{background:#fff3c4}.done{background:#d6f5dd}.failed{background:#fbd5d5}
.tool{font-family:ui-monospace,monospace;font-size:13px;background:#fafafa;border-left:3px solid #9ab;padding:4px 8px;margin:6px 0}
.answer{font-weight:600;margin-top:8px} form{display:flex;gap:8px;margin-top:16px} input{flex:1;padding:8px} button{padding:6px 12px}
#status{font-size:12px;color:#667} .note{font-size:13px;color:#556;margin:2px 0 6px}
</style></head>
<body><h1>Trip planner <span id="status"></span></h1><div id="messages"></div>
<form id="form"><input id="input" value="Book me a flight to Lisbon on Friday" autocomplete="off"><button>Send</button></form>
<script type="module" src="/page.js"></script></body></html>`;

async function readJson(req: IncomingMessage): Promise<unknown> {
  const parts: Buffer[] = [];
  for await (const part of req) parts.push(part as Buffer);
  return JSON.parse(Buffer.concat(parts).toString('utf8'));
}

/** The user's messages of a chat, for a reloaded page (the assistant's come back by replaying the stream). */
async function userMessages(store: SessionStore, chatId: string): Promise<UIMessage[]> {
  const session = await store.get({ appName: APP, userId: USER, id: chatId });
  return (session?.events ?? [])
    .filter((e) => e.author === 'user' && e.path === 'user' && e.message)
    .map((e) => ({
      id: `user-${e.id}`,
      role: 'user',
      parts: e.message!.content.flatMap((b) => (b.type === 'text' ? [{ type: 'text' as const, text: b.text }] : [])),
    }));
}

const lastUserText = (messages: readonly UIMessage[]): string =>
  [...messages]
    .reverse()
    .find((m) => m.role === 'user')
    ?.parts.flatMap((p) => (p.type === 'text' ? [p.text] : []))
    .join('\n') ?? '';

/** Starts the example's HTTP server: the page, its script, and the AI SDK chat routes. */
export async function startWebChat(options: WebChatOptions = {}): Promise<WebChat> {
  const store = options.store ?? new FileSessionStore({ dir: await mkdtemp(join(tmpdir(), 'replan-web-chat-')) });
  const script = await bundlePage();
  // One runner per chat: the scripted models keep each chat's place in the script.
  // One runner for every chat: each session (chat) keeps its own progress.
  const runner = tripRunner(store, options.searchMs === undefined ? {} : { searchMs: options.searchMs });

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (req.method === 'GET' && url.pathname === '/') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(PAGE);
      return;
    }
    if (req.method === 'GET' && url.pathname === '/page.js') {
      res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8' }).end(script);
      return;
    }
    // The AI SDK's send route: a new user message starts a run, approval responses resume it.
    if (req.method === 'POST' && url.pathname === '/api/chat') {
      const body = (await readJson(req)) as { id: string; messages: UIMessage[] };
      try {
        const resumed = await resumeFromApprovals(runner, { userId: USER, sessionId: body.id, messages: body.messages });
        // A message typed while an approval is open supersedes it: the run closes it as not approved.
        const run =
          resumed ?? runner.run({ userId: USER, sessionId: body.id, input: lastUserText(body.messages), stream: true, abandon: true });
        await writeUIStreamResponse(createUIMessageStreamResponse(run), res);
      } catch (error) {
        if (!(error instanceof UIStreamError && error.kind === 'unknown_approval')) throw error;
        res.writeHead(409, { 'content-type': 'text/plain' }).end(error.message);
      }
      return;
    }
    const chat = /^\/api\/chat\/([^/]+)\/(stream|messages)$/.exec(url.pathname);
    if (req.method === 'GET' && chat) {
      const chatId = decodeURIComponent(chat[1] as string);
      const exists = await store.get({ appName: APP, userId: USER, id: chatId });
      if (chat[2] === 'messages') {
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(await userMessages(store, chatId)));
        return;
      }
      // The AI SDK's reconnect route: replay the chat's last run from the log, then follow it live.
      if (!exists) {
        res.writeHead(204).end();
        return;
      }
      const after = req.headers['last-event-id'];
      const response = resumeUIMessageStreamResponse({
        store,
        appName: APP,
        userId: USER,
        sessionId: chatId,
        ...(typeof after === 'string' ? { after } : {}),
      });
      await writeUIStreamResponse(response, res);
      return;
    }
    res.writeHead(404).end();
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    store,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
