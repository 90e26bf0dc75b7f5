import type { ReasoningBlock } from '@replan/core';
import { isRecord, nonEmptyString, type Json } from './json.js';

/** Fields whose streamed fragments are appended; every other field takes its latest value. */
const APPENDED = new Set(['text', 'summary', 'data']);

/**
 * OpenRouter's `reasoning_details`: `reasoning.text` (with a `signature` that may arrive on a
 * later fragment of the same `index`), `reasoning.summary` and `reasoning.encrypted`. Streamed
 * fragments are merged by `index` (a fragment without one continues the last item of its type);
 * the merged items are kept verbatim, in order, to be sent back unchanged.
 */
export class ReasoningDetailsAccumulator {
  private readonly items: Json[] = [];
  private readonly byIndex = new Map<number, Json>();

  get size(): number {
    return this.items.length;
  }

  /** Adds the `reasoning_details` of one delta (`whole` for a complete message); returns the visible text added. */
  push(details: readonly unknown[], whole: boolean): string {
    let visible = '';
    details.forEach((raw, position) => {
      if (!isRecord(raw)) return;
      const target = this.targetOf(raw, position, whole);
      if (target) merge(target, raw);
      else {
        const item = { ...raw };
        this.items.push(item);
        if (typeof raw.index === 'number' && !whole) this.byIndex.set(raw.index, item);
      }
      visible += (typeof raw.text === 'string' ? raw.text : '') + (typeof raw.summary === 'string' ? raw.summary : '');
    });
    return visible;
  }

  private targetOf(raw: Json, position: number, whole: boolean): Json | undefined {
    if (whole) return undefined;
    if (typeof raw.index === 'number') return this.byIndex.get(raw.index);
    const last = this.items.at(-1);
    const continues = position === 0 && last !== undefined && last.type === raw.type && raw.type !== 'reasoning.encrypted';
    return continues ? last : undefined;
  }

  blocks(): ReasoningBlock[] {
    return this.items.map(blockOf);
  }
}

function merge(target: Json, fragment: Json): void {
  for (const [key, value] of Object.entries(fragment)) {
    if (value === null || value === undefined) {
      if (!(key in target)) target[key] = value;
    } else if (APPENDED.has(key) && typeof value === 'string' && typeof target[key] === 'string') {
      target[key] = (target[key] as string) + value;
    } else target[key] = value;
  }
}

function blockOf(item: Json): ReasoningBlock {
  const encrypted = item.type === 'reasoning.encrypted';
  const text = typeof item.text === 'string' ? item.text : typeof item.summary === 'string' ? item.summary : '';
  const signature = nonEmptyString(item.signature);
  const data = nonEmptyString(item.data);
  return {
    type: 'reasoning',
    reasoning: text,
    ...(signature ? { signature } : {}),
    ...(encrypted ? { redacted: true } : {}),
    ...(data ? { data } : {}),
    provider: 'openrouter',
    providerData: { ...item },
  };
}
