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

/** The model a request is for, as `withoutForeignReasoning` judges reasoning. */
export interface ReasoningTarget {
  /** Its `ChatModel.id`: bound blocks that name another model (`ReasoningBlock.model`) are foreign. */
  readonly id: string;
  /** The `provider` tags it takes back (`ChatModel.reasoningProviders`); absent: any tag. */
  readonly accepts?: readonly string[] | undefined;
  /** Keep only bound blocks this model made (`ReasoningBlock.model` is its id), and no tool-call signatures. */
  readonly ownOnly?: boolean;
}

/**
 * The messages `target` can be sent: bound reasoning (signatures, encrypted or redacted data) of
 * another provider, or made by another model, becomes plain reasoning text (a block with no text
 * is dropped), and tool-call signatures go unless the target takes `gemini` reasoning. Plain
 * reasoning is kept as it is. The input is never changed; messages that need no change are
 * returned as they were (the same array when nothing changed).
 */
export function withoutForeignReasoning(messages: readonly Message[], target: ReasoningTarget): readonly Message[] {
  let changed = false;
  const out = messages.map((message) => {
    if (message.role !== 'assistant') return message;
    const content = foreignFree(message.content, target);
    if (content === message.content) return message;
    changed = true;
    return { ...message, content };
  });
  return changed ? out : messages;
}

function isForeign(block: ReasoningBlock, target: ReasoningTarget): boolean {
  if (!isProviderBound(block)) return false;
  if (block.model !== undefined ? block.model !== target.id : target.ownOnly === true) return true;
  return target.accepts !== undefined && !(block.provider !== undefined && target.accepts.includes(block.provider));
}

const keepsToolCallSignatures = (target: ReasoningTarget) =>
  target.accepts !== undefined ? target.accepts.includes(TOOL_CALL_SIGNATURE_PROVIDER) : target.ownOnly !== true;

function foreignFree(content: readonly ContentBlock[], target: ReasoningTarget): readonly ContentBlock[] {
  let changed = false;
  const out: ContentBlock[] = [];
  for (const block of content) {
    if (block.type === 'reasoning' && isForeign(block, target)) {
      changed = true;
      // The thinking text is kept as plain reasoning: a provider that takes plain reasoning back may use it.
      if (block.reasoning)
        out.push(
          block.reasoningKind
            ? { type: 'reasoning', reasoning: block.reasoning, reasoningKind: block.reasoningKind }
            : { type: 'reasoning', reasoning: block.reasoning },
        );
    } else if (block.type === 'tool_call' && block.signature !== undefined && !keepsToolCallSignatures(target)) {
      changed = true;
      const { signature: _dropped, ...unsigned } = block;
      out.push(unsigned);
    } else out.push(block);
  }
  return changed ? out : content;
}
