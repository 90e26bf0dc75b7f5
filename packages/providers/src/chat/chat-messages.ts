import type { ContentBlock, Message, ReasoningBlock, ToolCallBlock, ToolResultBlock } from '@replan/core';
import { stringifyToolOutput } from '@replan/core';
import type { Json } from '../reasoning/json.js';
import { assistantReplay, type ReplayTarget } from '../reasoning/reasoning-replay.js';

const textOf = (content: readonly ContentBlock[], separator: string) =>
  content
    .filter((b) => b.type === 'text')
    .map((b) => (b as { text: string }).text)
    .join(separator);

/**
 * Core messages as Chat Completions messages: system and user text, assistant text with its tool
 * calls (ids byte for byte) and the reasoning fields its provider needs back, and one `tool`
 * message per tool result.
 */
export function toChatMessages(messages: readonly Message[], target: ReplayTarget): Json[] {
  const out: Json[] = [];
  for (const message of messages) {
    switch (message.role) {
      case 'system':
        out.push({ role: 'system', content: textOf(message.content, '\n\n') });
        break;
      case 'user': {
        pushToolResults(out, message.content);
        const text = textOf(message.content, '\n\n');
        if (text || !message.content.some((b) => b.type === 'tool_result')) out.push({ role: 'user', content: text });
        break;
      }
      case 'assistant':
        out.push(assistantMessage(message.content, target));
        break;
      case 'tool':
        pushToolResults(out, message.content);
        break;
    }
  }
  return out;
}

function pushToolResults(out: Json[], content: readonly ContentBlock[]): void {
  for (const block of content)
    if (block.type === 'tool_result')
      out.push({ role: 'tool', tool_call_id: (block as ToolResultBlock).toolCallId, content: stringifyToolOutput(block.output) });
}

function assistantMessage(content: readonly ContentBlock[], target: ReplayTarget): Json {
  const text = textOf(content, '');
  const calls = content.filter((b): b is ToolCallBlock => b.type === 'tool_call');
  const reasoning = content.filter((b): b is ReasoningBlock => b.type === 'reasoning');
  const replay = assistantReplay(target, reasoning, calls);
  const message: Json = { role: 'assistant', content: text || (calls.length ? null : '') };
  if (calls.length)
    message.tool_calls = calls.map((call, i) => ({
      id: call.id,
      type: 'function',
      function: { name: call.name, arguments: JSON.stringify(call.args) },
      ...replay.toolCalls[i],
    }));
  return { ...message, ...replay.message };
}
