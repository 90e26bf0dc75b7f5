import type { AgentEvent } from '../events/agent-event.js';
import type { Message } from '../messages/message.js';
import { stringifyToolOutput } from '../messages/message.js';
import type { InvocationContext } from '../agents/invocation-context.js';
import type { ContextOptions } from './context-options.js';

/** Turns another agent's message into quoted, user-role context. */
function quoteOtherAgent(event: AgentEvent): Message | undefined {
  const message = event.message;
  if (!message) return undefined;
  const parts: string[] = [];
  for (const block of message.content) {
    if (block.type === 'text' && block.text) parts.push(`[${event.author}] said: ${block.text}`);
    else if (block.type === 'tool_call')
      parts.push(`[${event.author}] called tool ${block.name} with ${JSON.stringify(block.args)}`);
    else if (block.type === 'tool_result')
      parts.push(`[${event.author}]'s tool ${block.name} returned ${stringifyToolOutput(block.output)}`);
  }
  if (!parts.length) return undefined;
  return { role: 'user', content: [{ type: 'text', text: `For context:\n${parts.join('\n')}` }] };
}

/**
 * Builds the model messages an agent sees from the session's events: user messages as they are,
 * the agent's own turns as they are, other agents' messages as quoted user-role context.
 */
export function buildContextMessages(ctx: InvocationContext, _options: ContextOptions = {}): Message[] {
  const out: Message[] = [];
  const self = ctx.agent.name;
  for (const event of ctx.events) {
    if (event.partial || !event.message || !ctx.isVisible(event)) continue;
    if (event.author === 'user' || event.author === self) out.push(event.message);
    else {
      const quoted = quoteOtherAgent(event);
      if (quoted) out.push(quoted);
    }
  }
  return out;
}

/** The message an own event adds to the context, if any (used to extend a built context). */
export const ownContextMessage = (event: AgentEvent): Message | undefined =>
  event.partial || !event.message ? undefined : event.message;

