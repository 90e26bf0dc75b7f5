import { assistantMessage, type InvocationContext, type Message } from '@replan/core';

/**
 * The conversation an objective comes from, roles kept: every user message of the session, and
 * the final answers of earlier invocations as assistant messages (so a follow-up question such as
 * "and for 2023?" keeps its meaning). Other agents' intermediate messages are left out.
 */
export function conversationOf(ctx: InvocationContext): Message[] {
  const out: Message[] = [];
  for (const event of ctx.events) {
    if (event.partial) continue;
    if (event.author === 'user' && event.message) out.push(event.message);
    else if (event.actions?.final && event.invocationId !== ctx.invocationId) out.push(assistantMessage(event.actions.final.text));
  }
  return out;
}
