import type { ContentBlock, Message, ReasoningBlock, ToolCallBlock } from '@replan/core';
import { isMediaBlock } from '@replan/core/agent-kit';

import { mediaProfile } from '../media/media-profile.js';
import type { MediaTarget } from '../media/media-parts.js';
import type { Json } from '../reasoning/json.js';
import { assistantReplay, type ReplayTarget } from '../reasoning/reasoning-replay.js';
import { plainText, toolResultMessage, userContent } from './chat-content.js';

const GENERIC_MEDIA: MediaTarget = { profile: mediaProfile('generic') };

/**
 * Core messages as Chat Completions messages: system text, user text with its images and files,
 * assistant text with its tool calls (ids byte for byte) and the reasoning fields its provider
 * needs back, and one `tool` message per tool result — a result's images and files follow the
 * tool messages in a user message (see `toolResultMessage`).
 */
export function toChatMessages(messages: readonly Message[], target: ReplayTarget, media: MediaTarget = GENERIC_MEDIA): Json[] {
  const out: Json[] = [];
  // Media of tool results, held until the tool messages of the turn are all out (a user message between them is refused).
  let attached: Json[] = [];
  const flush = () => {
    if (attached.length) out.push({ role: 'user', content: attached });
    attached = [];
  };
  for (const message of messages) {
    switch (message.role) {
      case 'system':
        flush();
        out.push({ role: 'system', content: plainText(message.content, '\n\n') });
        break;
      case 'user': {
        attached.push(...pushToolResults(out, message.content, media));
        const own = message.content.some((b) => b.type === 'text' || isMediaBlock(b));
        if (!own && message.content.some((b) => b.type === 'tool_result')) break;
        const content = userContent(message.content, media);
        // The next user message carries the tool results' media, before its own content.
        if (attached.length)
          out.push({
            role: 'user',
            content: [...attached, ...(typeof content === 'string' ? [{ type: 'text', text: content }] : content)],
          });
        else out.push({ role: 'user', content });
        attached = [];
        break;
      }
      case 'assistant':
        flush();
        out.push(assistantMessage(message.content, target));
        break;
      case 'tool':
        attached.push(...pushToolResults(out, message.content, media));
        break;
    }
  }
  flush();
  return out;
}

/** Pushes a `tool` message per tool result; returns the parts of their images and files. */
function pushToolResults(out: Json[], content: readonly ContentBlock[], media: MediaTarget): Json[] {
  const attached: Json[] = [];
  for (const block of content)
    if (block.type === 'tool_result') {
      const result = toolResultMessage(block, media);
      out.push(result.message);
      attached.push(...result.attached);
    }
  return attached;
}

function assistantMessage(content: readonly ContentBlock[], target: ReplayTarget): Json {
  const text = plainText(content, '');
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
