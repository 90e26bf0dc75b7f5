import type { ReasoningBlock, ToolCallBlock } from '@replan/core';
import type { ProviderProfileName } from '../profiles/provider-profile.js';
import { isRecord, type Json } from './json.js';

export interface ReplayTarget {
  readonly profile: ProviderProfileName;
  /** Google's own endpoint: signatures only in `extra_content.google` (it rejects unknown fields). */
  readonly googleEndpoint: boolean;
}

/** Reasoning fields for one assistant message sent back: on the message, and on each of its tool calls. */
export interface AssistantReplay {
  readonly message: Json;
  readonly toolCalls: readonly Json[];
}

/**
 * What each provider needs back on the next turn so reasoning survives multi-turn tool use:
 * - `openrouter`: `reasoning_details`, unchanged and in order, on every assistant message;
 * - `anthropic`: signed `thinking_blocks` (and `redacted_thinking`) on assistant messages with tool calls;
 * - `deepseek`: `reasoning_content` on every assistant message with tool calls (`""` when there was none);
 * - `gemini`: each tool call's thought signature where Gemini reads it, the first call of a step
 *   falling back to the message's signature; through a proxy also LiteLLM's `provider_specific_fields`;
 * - `openai`, `plain`: nothing (those servers reject or ignore reasoning fields).
 * Only blocks produced by the matching shape are sent, so a session moved between providers never
 * sends one provider's signatures to another. Thinking read from `<think>` tags in the content
 * (`provider: 'think-tags'`) is plain unsigned text: only `deepseek` sends it back (in
 * `reasoning_content`, like any plain reasoning); it is never written back into the content.
 */
export function assistantReplay(
  target: ReplayTarget,
  reasoning: readonly ReasoningBlock[],
  calls: readonly ToolCallBlock[],
): AssistantReplay {
  const none = calls.map(() => ({}));
  switch (target.profile) {
    case 'openrouter': {
      const details = reasoning.filter((b) => b.provider === 'openrouter' && isRecord(b.providerData)).map((b) => ({ ...b.providerData }));
      return { message: details.length ? { reasoning_details: details } : {}, toolCalls: none };
    }
    case 'anthropic': {
      if (!calls.length) return { message: {}, toolCalls: none };
      const blocks: Json[] = [];
      for (const b of reasoning) {
        if (b.provider !== 'anthropic') continue;
        if (b.redacted) {
          if (b.data) blocks.push({ type: 'redacted_thinking', data: b.data });
        } else if (b.signature) blocks.push({ type: 'thinking', thinking: b.reasoning, signature: b.signature });
      }
      return { message: blocks.length ? { thinking_blocks: blocks } : {}, toolCalls: none };
    }
    case 'deepseek': {
      if (!calls.length) return { message: {}, toolCalls: none };
      const text = reasoning
        .filter((b) => !b.redacted && !b.reasoningKind)
        .map((b) => b.reasoning)
        .join('');
      return { message: { reasoning_content: text }, toolCalls: none };
    }
    case 'gemini':
      return geminiReplay(target, reasoning, calls);
    default:
      return { message: {}, toolCalls: none };
  }
}

function geminiReplay(target: ReplayTarget, reasoning: readonly ReasoningBlock[], calls: readonly ToolCallBlock[]): AssistantReplay {
  const messageSignatures = reasoning.filter((b) => b.provider === 'gemini' && b.signature).map((b) => b.signature as string);
  const toolCalls = calls.map((call, i) => {
    const signature = call.signature ?? (i === 0 ? messageSignatures[0] : undefined);
    if (!signature) return {};
    const google = { extra_content: { google: { thought_signature: signature } } };
    return target.googleEndpoint ? google : { ...google, provider_specific_fields: { thought_signature: signature } };
  });
  const message =
    !target.googleEndpoint && messageSignatures.length && calls.length
      ? { provider_specific_fields: { thought_signatures: messageSignatures } }
      : {};
  return { message, toolCalls };
}
