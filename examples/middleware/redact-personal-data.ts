import type { ContentBlock, Message, Middleware } from '@replan/core';

/** What counts as personal data here: e-mail addresses and phone numbers (extend to your own). */
const PATTERNS: readonly [RegExp, string][] = [
  [/[\w.+-]+@[\w-]+(?:\.[\w-]+)+/g, '[email]'],
  [/\+?\d[\d ().-]{7,}\d/g, '[phone]'],
];

export const redact = (text: string): string => PATTERNS.reduce((t, [pattern, label]) => t.replace(pattern, label), text);

function redactBlock(block: ContentBlock): ContentBlock {
  if (block.type === 'text') {
    const text = redact(block.text);
    return text === block.text ? block : { ...block, text };
  }
  if (block.type === 'tool_result' && typeof block.output === 'string') {
    const output = redact(block.output);
    return output === block.output ? block : { ...block, output };
  }
  return block;
}

/**
 * Personal data never reaches the model: every text block and string tool result of the request is
 * redacted before the call. The session log keeps what the user and the tools really said (the
 * middleware rewrites the request, never the log), so a person can still read it.
 */
export function redactPersonalData(): Middleware {
  // A message is redacted once however many requests show it (the context grows by appending).
  const shown = new WeakMap<Message, Message>();
  const redactMessage = (message: Message): Message => {
    let out = shown.get(message);
    if (!out) {
      const content = message.content.map(redactBlock);
      out = content.every((b, i) => b === message.content[i]) ? message : { ...message, content };
      shown.set(message, out);
    }
    return out;
  };
  return {
    name: 'redactPersonalData',
    prepareRequest: (request) => ({ ...request, messages: request.messages.map(redactMessage) }),
  };
}
