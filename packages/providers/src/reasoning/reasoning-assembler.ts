import type { ReasoningBlock } from '@replan/core';
import type { ProviderProfileName } from '../profiles/provider-profile.js';
import type { Json } from './json.js';
import { ReasoningDetailsAccumulator } from './reasoning-details.js';
import { plainReasoningOf } from './reasoning-text.js';
import { messageThoughtSignaturesOf, ThinkingBlocksAccumulator, type ThinkingEntry } from './thinking-blocks.js';

/**
 * Collects every reasoning shape of one assistant message — from stream deltas or from a whole
 * message, through the same code — and turns them into `reasoning` blocks in order.
 * Preference: OpenRouter `reasoning_details`, then LiteLLM `thinking_blocks` (Gemini signatures
 * zipped on), then the plain `reasoning_content` / `reasoning` text.
 */
export class ReasoningAssembler {
  private readonly details = new ReasoningDetailsAccumulator();
  private readonly thinking = new ThinkingBlocksAccumulator();
  private readonly signatures: string[] = [];
  private plain = '';

  constructor(private readonly profile: ProviderProfileName) {}

  /** Adds the reasoning fields of a delta (or whole message); returns the reasoning text to show. */
  push(delta: Json, whole: boolean): string {
    const fromDetails = Array.isArray(delta.reasoning_details) ? this.details.push(delta.reasoning_details, whole) : '';
    const fromThinking = Array.isArray(delta.thinking_blocks) ? this.thinking.push(delta.thinking_blocks, whole) : '';
    const plain = plainReasoningOf(delta);
    this.plain += plain;
    this.signatures.push(...messageThoughtSignaturesOf(delta));
    // Once thinking blocks carry the text, they alone say what is new (a repeat adds nothing).
    if (Array.isArray(delta.thinking_blocks) && this.thinking.entries.some((e) => e.text)) return fromDetails || fromThinking;
    return fromDetails || fromThinking || plain;
  }

  blocks(): ReasoningBlock[] {
    if (this.details.size) return this.details.blocks();
    if (this.thinking.entries.length) return this.thinkingBlocks(this.thinking.entries);
    if (!this.plain && !this.signatures.length) return [];
    const [first, ...rest] = this.signatures;
    return [
      { type: 'reasoning', reasoning: this.plain, ...(first ? { signature: first, provider: 'gemini' } : {}) },
      ...rest.map(signatureOnly),
    ];
  }

  private thinkingBlocks(entries: readonly ThinkingEntry[]): ReasoningBlock[] {
    const provider = this.signatures.length || this.profile === 'gemini' ? 'gemini' : 'anthropic';
    const pending = [...this.signatures];
    const blocks: ReasoningBlock[] = entries.map((e) => {
      if (e.kind === 'redacted') return { type: 'reasoning', reasoning: '', redacted: true, data: e.data ?? '', provider };
      const signature = e.signature ?? pending.shift();
      return { type: 'reasoning', reasoning: e.text, ...(signature ? { signature } : {}), provider };
    });
    blocks.push(...pending.map(signatureOnly));
    // Blocks that carry no text (Gemini through LiteLLM): the text is in reasoning_content.
    if (this.plain && !blocks.some((b) => !b.redacted && b.reasoning)) {
      const i = blocks.findIndex((b) => !b.redacted);
      if (i >= 0) blocks[i] = { ...(blocks[i] as ReasoningBlock), reasoning: this.plain };
      else blocks.unshift({ type: 'reasoning', reasoning: this.plain });
    }
    return blocks;
  }
}

const signatureOnly = (signature: string): ReasoningBlock => ({ type: 'reasoning', reasoning: '', signature, provider: 'gemini' });
