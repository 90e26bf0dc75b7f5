import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createUIMessageStreamResponse, resumeUIMessageStreamResponse, writeUIStreamResponse } from '../src/index.js';
import { gate, tripRunner } from './support/trip-run.js';

const user = { userId: 'ana', sessionId: 'trip-1' };
let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  server = undefined;
});

async function serve(handler: Parameters<typeof createServer>[1]): Promise<string> {
  server = createServer(handler);
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** The SSE events of a body: each one's id and data. */
const events = (body: string) =>
  body
    .split('\n\n')
    .filter(Boolean)
    .map((block) => ({ id: /^id: (.*)$/m.exec(block)?.[1], data: /^data: (.*)$/m.exec(block)?.[1] }));

describe('SSE responses over node:http', () => {
  it("carries each chunk's id as the event's id line, with the AI SDK's headers, then [DONE]", async () => {
    const { runner } = tripRunner();
    const url = await serve((_req, res) => {
      const run = runner.run({ ...user, input: 'Book', stream: true });
      void writeUIStreamResponse(createUIMessageStreamResponse(run, { runner, ...user }), res);
    });
    const response = await fetch(url);
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    expect(response.headers.get('x-vercel-ai-ui-message-stream')).toBe('v1');
    const sent = events(await response.text());
    expect(sent.at(-1)).toEqual({ id: undefined, data: '[DONE]' });
    for (const event of sent.slice(0, -1)) expect(event.id).toMatch(/^[0-9a-f]{8}:\d+[.+]\d+$/);
    expect(JSON.parse(sent[0]?.data ?? '')).toMatchObject({ type: 'start' });

    // Last-Event-ID: the reconnect route sends what came after it.
    const resumeUrl = await serve((req, res) => {
      const lastEventId = req.headers['last-event-id'];
      const request = new Request('http://x', typeof lastEventId === 'string' ? { headers: { 'last-event-id': lastEventId } } : {});
      void writeUIStreamResponse(resumeUIMessageStreamResponse({ runner, ...user, request }), res);
    });
    const replay = async (after?: string) =>
      events(await (await fetch(resumeUrl, after ? { headers: { 'last-event-id': after } } : {})).text()).filter((e) =>
        e.id?.includes('.'),
      );
    const full = await replay();
    const byId = new Map(full.map((e) => [e.id, e.data]));
    const live = sent.filter((e) => e.id?.includes('.'));
    // The live stream's ids are the replay's: a text it streamed as deltas has only its end there, at the replay's place.
    for (const event of live) {
      expect(byId.has(event.id)).toBe(true);
      const type = JSON.parse(event.data ?? '{}').type as string;
      if (!/^(text|reasoning)-/.test(type)) expect(event.data).toBe(byId.get(event.id));
    }
    expect(full.length).toBeGreaterThan(live.length);
    for (const middle of [live[5]!, live.find((e) => e.data?.includes('"text-end"'))!]) {
      const after = await replay(middle.id);
      expect(after).toEqual(full.slice(full.findIndex((e) => e.id === middle.id) + 1));
      // After the end of a streamed text, that text is not sent again.
      if (middle.data?.includes('"text-end"')) expect(after[0]?.data).not.toContain('"text-');
    }
  });

  it('a client that goes away stops the response, not the run', async () => {
    const hold = gate();
    const { runner, store } = tripRunner({ hold: hold.opened });
    let written: Promise<void> | undefined;
    const url = await serve((_req, res) => {
      const run = runner.run({ ...user, input: 'Book', stream: true });
      written = writeUIStreamResponse(createUIMessageStreamResponse(run, { runner, ...user }), res);
    });
    const controller = new AbortController();
    const response = await fetch(url, { signal: controller.signal });
    const reader = response.body!.getReader();
    await reader.read();
    controller.abort();
    await written;
    hold.open();
    const key = { appName: 'trips', userId: user.userId, id: user.sessionId };
    // The run goes on to its approval request and stores it.
    for (;;) {
      const session = await store.get(key);
      if (session?.events.some((e) => e.actions?.interrupt)) break;
      await new Promise((r) => setTimeout(r, 10));
    }
    expect((await store.get(key))?.events.some((e) => e.actions?.interrupt?.reason === 'approval')).toBe(true);
  });
});
