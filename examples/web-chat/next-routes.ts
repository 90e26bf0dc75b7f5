/**
 * The Next.js route handlers of docs/ai-sdk.md, type-checked here (`pnpm typecheck`) and called with
 * web `Request`s by packages/ai-sdk/test/next-routes.test.ts; a test keeps the doc's snippets
 * identical to the regions below. In an app they are two files:
 * `app/api/chat/route.ts` (POST) and `app/api/chat/[id]/stream/route.ts` (GET, the AI SDK
 * client's reconnect route). The same handlers serve Hono: `app.post('/api/chat', (c) => POST(c.req.raw))`.
 */
import { FileSessionStore } from '@replan/core';
import { tripRunner } from './trip-agent.js';

// Sessions live in ./sessions; REPLAN_WEB_CHAT_STORE names another directory (its test uses a temporary one).
const runner = tripRunner(new FileSessionStore({ dir: process.env.REPLAN_WEB_CHAT_STORE ?? './sessions' }));
const userIdOf = (_request: Request) => 'demo-user'; // your app's login

// #region post
// app/api/chat/route.ts
import { createUIMessageStreamResponse, resumeFromApprovals, UIStreamError } from '@replan/ai-sdk';
import type { UIMessage } from 'ai';

export async function POST(request: Request): Promise<Response> {
  const { id, messages } = (await request.json()) as { id: string; messages: UIMessage[] };
  const userId = userIdOf(request);
  try {
    // Approval responses resume the run that asked; a new user message starts one (closing an
    // approval left open as "not approved: superseded").
    const run =
      (await resumeFromApprovals(runner, { userId, sessionId: id, messages })) ??
      runner.run({ userId, sessionId: id, input: lastUserText(messages), stream: true, abandon: true });
    return createUIMessageStreamResponse(run);
  } catch (error) {
    if (error instanceof UIStreamError && error.kind === 'unknown_approval') return new Response(error.message, { status: 409 });
    throw error;
  }
}
// #endregion post

// #region get
// app/api/chat/[id]/stream/route.ts
import { resumeUIMessageStreamResponse } from '@replan/ai-sdk';

export async function GET(request: Request, { params }: { params: Promise<{ id: string }> }): Promise<Response> {
  const { id } = await params;
  const userId = userIdOf(request);
  if (!(await runner.sessionStore.get({ appName: runner.appName, userId, id }))) return new Response(null, { status: 204 });
  // Replays the chat's last run from the session's log, then follows it live (Last-Event-ID honoured).
  return resumeUIMessageStreamResponse({ runner, userId, sessionId: id, request });
}
// #endregion get

function lastUserText(messages: readonly UIMessage[]): string {
  const last = messages.findLast((m) => m.role === 'user');
  return last?.parts.map((p) => (p.type === 'text' ? p.text : '')).join('') ?? '';
}
