import type { ContentBlock, ReasoningBlock } from '../messages/content-block.js';
import type { Message } from '../messages/message.js';

/**
 * The provider tag under which tool-call signatures count: on our wire only Gemini signs tool
 * calls (its thought signatures), and a tool-call block carries no provider tag of its own.
 */
export const TOOL_CALL_SIGNATURE_PROVIDER = 'gemini';

/** True when a reasoning block holds something only its provider can read back (a signature, encrypted or redacted data, raw provider fields). */
export function isProviderBound(block: ReasoningBlock): boolean {
  return block.signature !== undefined || block.redacted === true || block.data !== undefined || block.providerData !== undefined;
}

/**
 * The messages a model that takes only the reasoning of `accepts` providers can be sent: other
 * providers' bound reasoning becomes plain reasoning text (a signature-only or encrypted block with
 * no text is dropped), and tool-call signatures go unless `accepts` holds `gemini`. Plain
 * reasoning (no signature or data) is kept as it is. The input is never changed; messages and
 * blocks that need no change are returned as they were (same objects).
 */
export function withoutForeignReasoning(messages: readonly Message[], accepts: readonly string[]): readonly Message[] {
  let changed = false;
  const out = messages.map((message) => {
    if (message.role !== 'assistant') return message;
    const content = foreignFree(message.content, accepts);
    if (content === message.content) return message;
    changed = true;
    return { ...message, content };
  });
  return changed ? out : messages;
}

function foreignFree(content: readonly ContentBlock[], accepts: readonly string[]): readonly ContentBlock[] {
  let changed = false;
  const out: ContentBlock[] = [];
  for (const block of content) {
    if (block.type === 'reasoning' && isProviderBound(block) && !(block.provider !== undefined && accepts.includes(block.provider))) {
      changed = true;
      // The thinking text is kept as plain reasoning: a provider that takes plain reasoning back may use it.
      if (block.reasoning) out.push(block.reasoningKind ? { type: 'reasoning', reasoning: block.reasoning, reasoningKind: block.reasoningKind } : { type: 'reasoning', reasoning: block.reasoning });
    } else if (block.type === 'tool_call' && block.signature !== undefined && !accepts.includes(TOOL_CALL_SIGNATURE_PROVIDER)) {
      changed = true;
      const { signature: _dropped, ...unsigned } = block;
      out.push(unsigned);
    } else out.push(block);
  }
  return changed ? out : content;
}
