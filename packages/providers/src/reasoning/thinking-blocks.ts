import { isRecord, nonEmptyString } from './json.js';

/** One assembled entry of LiteLLM's `thinking_blocks`. */
export interface ThinkingEntry {
  readonly kind: 'thinking' | 'redacted';
  text: string;
  signature?: string;
  data?: string;
}

/**
 * LiteLLM's `thinking_blocks`: Anthropic `{type: "thinking", thinking, signature}` and
 * `{type: "redacted_thinking", data}`, and Gemini's signature-less thinking blocks. While
 * streaming, the first fragment of a delta continues the last unsigned thinking block; a
 * signature-only fragment `{thinking: "", signature}` closes it, and so does a signed fragment
 * that repeats the block's whole text (kept once). In a complete message every
 * element is its own block (except a signature-only element, which signs the one before).
 */
export class ThinkingBlocksAccumulator {
  readonly entries: ThinkingEntry[] = [];

  /** Adds the `thinking_blocks` of one delta (`whole` for a complete message); returns the visible text added. */
  push(blocks: readonly unknown[], whole: boolean): string {
    let visible = '';
    blocks.forEach((raw, position) => {
      if (!isRecord(raw)) return;
      if (raw.type === 'redacted_thinking') {
        this.entries.push({ kind: 'redacted', text: '', data: typeof raw.data === 'string' ? raw.data : '' });
        return;
      }
      const text = typeof raw.thinking === 'string' ? raw.thinking : typeof raw.text === 'string' ? raw.text : '';
      const signature = nonEmptyString(raw.signature);
      const last = this.entries.at(-1);
      const open = last?.kind === 'thinking' && last.signature === undefined;
      // LiteLLM's Anthropic path may close a streamed block by repeating its whole text with the
      // signature: only what the repeat adds (usually nothing) is new.
      const repeat = open && !whole && signature !== undefined && last.text !== '' && text.startsWith(last.text);
      if (repeat) {
        const added = text.slice(last.text.length);
        last.text = text;
        last.signature = signature;
        visible += added;
        return;
      }
      if (open && ((!whole && position === 0) || (text === '' && signature !== undefined))) {
        last.text += text;
        if (signature !== undefined) last.signature = signature;
      } else this.entries.push({ kind: 'thinking', text, ...(signature !== undefined ? { signature } : {}) });
      visible += text;
    });
    return visible;
  }
}

/**
 * Gemini thought signatures that arrive beside the message rather than on a tool call:
 * LiteLLM's `provider_specific_fields.thought_signatures` (a list, extended while streaming) and
 * `extra_content.google.thought_signature` on the message.
 */
export function messageThoughtSignaturesOf(delta: Record<string, unknown>): string[] {
  const out: string[] = [];
  const fields = delta.provider_specific_fields;
  if (isRecord(fields)) {
    if (Array.isArray(fields.thought_signatures)) for (const s of fields.thought_signatures) if (typeof s === 'string' && s) out.push(s);
    const single = nonEmptyString(fields.thought_signature);
    if (single) out.push(single);
  }
  const google = isRecord(delta.extra_content) ? delta.extra_content.google : undefined;
  const signature = isRecord(google) ? nonEmptyString(google.thought_signature) : undefined;
  if (signature) out.push(signature);
  return out;
}
