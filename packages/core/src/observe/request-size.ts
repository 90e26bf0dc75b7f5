import type { Message } from '../messages/message.js';
import type { ModelRequest } from '../models/chat-model.js';
import { estimateMediaTokens } from '../messages/media-tokens.js';
import { toolResultContent } from '../messages/media-check.js';
import { mediaPlaceholder } from '../messages/message.js';

/** Characters an image or file counts as: its estimated tokens at four characters each, never its base64. */
const mediaChars = (block: Parameters<typeof estimateMediaTokens>[0]) => estimateMediaTokens(block) * 4;

// A run sends the same message objects again on every call: each is measured once.
const measured = new WeakMap<Message, number>();

function messageChars(message: Message): number {
  let chars = measured.get(message);
  if (chars !== undefined) return chars;
  chars = 0;
  for (const block of message.content) {
    if (block.type === 'text') chars += block.text.length;
    else if (block.type === 'reasoning') chars += block.reasoning.length;
    else if (block.type === 'tool_call') chars += block.name.length + JSON.stringify(block.args ?? null).length;
    else if (block.type === 'tool_result') {
      const content = toolResultContent(block.output);
      if (content)
        for (const item of content) chars += item.type === 'text' ? item.text.length : mediaPlaceholder(item).length + mediaChars(item);
      else chars += typeof block.output === 'string' ? block.output.length : JSON.stringify(block.output ?? null).length;
    } else chars += mediaChars(block);
  }
  measured.set(message, chars);
  return chars;
}

/**
 * Characters a request sends: message text, reasoning, tool calls and results, tool specs and the
 * response schema; an image or file as its estimated tokens (`estimateMediaTokens`) × 4. Cheap and provider-independent; what budgets and observers estimate from.
 */
export function requestChars(request: ModelRequest): number {
  let chars = 0;
  for (const message of request.messages) chars += messageChars(message);
  for (const spec of request.tools ?? []) chars += spec.name.length + spec.description.length + JSON.stringify(spec.parameters).length;
  if (request.responseFormat) chars += JSON.stringify(request.responseFormat.schema).length;
  return chars;
}

/** Input tokens a request of `chars` characters is likely to cost (about 4 characters a token, rounded up). */
export const estimateTokens = (chars: number): number => Math.ceil(chars / 4);
