import type { Usage } from '@replan/core';

// Control characters (escape sequences start with one) and halves of a surrogate pair standing alone.
// biome-ignore lint/suspicious/noControlCharactersInRegex: these are the characters being replaced
const UNPRINTABLE = /[\u0000-\u001f\u007f-\u009f]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Text from a model or a case name on one line: control characters and lone surrogates shown as `\u001b`, cut to `max`. */
export function oneLine(text: string, max = 160): string {
  const flat = text
    .trim()
    .replace(/\s+/g, ' ')
    .replace(UNPRINTABLE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** `850 ms`, `1.2 s`. */
export const duration = (ms: number): string => (ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`);

/** `$0.0123` (six decimals at most, trailing zeros dropped). */
export const dollars = (amount: number): string => `$${Number(amount.toFixed(6))}`;

/**
 * What model calls cost, in words that do not pass an unpriced run off as free: `$0.0123`;
 * `unpriced` when no call had a price; `$0.0123 + 2 calls unpriced` when some had none.
 */
export const costText = (amount: number, unpricedModelCalls: number): string => {
  if (!unpricedModelCalls) return dollars(amount);
  const calls = `${unpricedModelCalls} call${unpricedModelCalls === 1 ? '' : 's'} unpriced`;
  return amount === 0 ? `unpriced (${calls})` : `${dollars(amount)} + ${calls}`;
};

/** `1,234 tokens (1,000 in / 234 out)`. */
export const tokens = (usage: Usage): string => {
  const total = usage.inputTokens + usage.outputTokens;
  return `${total.toLocaleString('en-US')} tokens (${usage.inputTokens.toLocaleString('en-US')} in / ${usage.outputTokens.toLocaleString('en-US')} out)`;
};

/** `3/4 (75%)`. */
export const rate = (share: number, runs: number): string => `${Math.round(share * runs)}/${runs} (${Math.round(share * 100)}%)`;
