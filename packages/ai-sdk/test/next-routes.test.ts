import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseJsonEventStream, readUIMessageStream, type UIMessage, type UIMessageChunk, uiMessageChunkSchema } from 'ai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * The Next.js route handlers that docs/ai-sdk.md shows (examples/web-chat/next-routes.ts), called
 * as Next.js calls them: with web `Request`s, reading the SSE bodies as the AI SDK client does.
 */
type Routes = typeof import('../../../examples/web-chat/next-routes.js');
let routes: Routes;
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'replan-next-routes-'));
  // The module makes its store when imported: point it at a temporary directory, not ./sessions.
  process.env.REPLAN_WEB_CHAT_STORE = dir;
  try {
    routes = await import('../../../examples/web-chat/next-routes.js');
  } finally {
    delete process.env.REPLAN_WEB_CHAT_STORE;
  }
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const post = (body: { id: string; messages: UIMessage[] }) =>
  routes.POST(
    new Request('http://app.test/api/chat', {
      method: 'POST',
      body: JSON.stringify(body),
      headers: { 'content-type': 'application/json' },
    }),
  );
const get = (id: string) => routes.GET(new Request(`http://app.test/api/chat/${id}/stream`), { params: Promise.resolve({ id }) });

/** The message the AI SDK client builds from an SSE response body (as `DefaultChatTransport` parses it). */
async function readMessage(response: Response, message?: UIMessage): Promise<UIMessage> {
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toBe('text/event-stream');
  expect(response.body).not.toBeNull();
  const stream = parseJsonEventStream({ stream: response.body as ReadableStream<Uint8Array>, schema: uiMessageChunkSchema }).pipeThrough(
    new TransformStream<{ success: boolean; value?: UIMessageChunk; error?: unknown }, UIMessageChunk>({
      transform(result, controller) {
        if (!result.success) throw result.error;
        controller.enqueue(result.value as UIMessageChunk);
      },
    }),
  );
  let last: UIMessage | undefined;
  for await (const snapshot of readUIMessageStream({ stream, ...(message ? { message } : {}) })) last = snapshot;
  if (!last) throw new Error('the response carried no message');
  return last;
}

type ToolPart = Extract<UIMessage['parts'][number], { type: 'dynamic-tool' }>;
const toolPart = (message: UIMessage, name: string) =>
  message.parts.find((p): p is ToolPart => p.type === 'dynamic-tool' && p.toolName === name);

/** The assistant message with its approval answered, as the client posts it back. */
function answer(message: UIMessage, approvalId: (requested: string) => string): UIMessage {
  return {
    ...message,
    parts: message.parts.map((p) =>
      p.type === 'dynamic-tool' && p.state === 'approval-requested'
        ? { ...p, state: 'approval-responded', approval: { id: approvalId(p.approval.id), approved: true } }
        : p,
    ) as UIMessage['parts'],
  };
}

describe('the Next.js route handlers of docs/ai-sdk.md', () => {
  it('stream a chat to its approval, replay it on reconnect, refuse a forged approval and resume on the real one', async () => {
    const id = 'chat-next-routes';
    const user: UIMessage = { id: 'u1', role: 'user', parts: [{ type: 'text', text: 'Book me a flight to Lisbon on Friday' }] };

    // POST a user message: the run streams until the booking asks a person.
    const first = await readMessage(await post({ id, messages: [user] }));
    expect(first.role).toBe('assistant');
    expect(toolPart(first, 'search_flights')?.state).toBe('output-available');
    const booking = toolPart(first, 'book_flight');
    expect(booking?.state).toBe('approval-requested');
    expect(first.parts.some((p) => p.type === 'data-plan')).toBe(true);

    // GET (the client's reconnect route): the same message for a known chat, nothing for an unknown one.
    const replayed = await readMessage(await get(id));
    expect(replayed.id).toBe(first.id);
    expect(replayed.parts).toEqual(first.parts);
    const unknown = await get('no-such-chat');
    expect(unknown.status).toBe(204);
    expect(unknown.body).toBeNull();

    // An approval for a call the session is not waiting for: 409, and nothing runs.
    const forged = await post({ id, messages: [user, answer(replayed, () => 'forged-approval')] });
    expect(forged.status).toBe(409);
    expect(await forged.text()).toContain('"forged-approval"');
    expect((await readMessage(await get(id))).parts).toEqual(first.parts);

    // The real approval resumes the run into the same message, up to the answer.
    const approved = answer(replayed, (requested) => requested);
    const final = await readMessage(await post({ id, messages: [user, approved] }), approved);
    expect(final.id).toBe(first.id);
    expect(toolPart(final, 'book_flight')).toMatchObject({ state: 'output-available', output: { flight: 'TP1351', status: 'confirmed' } });
    const text = final.parts.filter((p) => p.type === 'text').at(-1);
    expect(text?.type === 'text' ? text.text : '').toContain('TP1351 to Lisbon');
  });
});
