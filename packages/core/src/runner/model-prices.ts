import type { Usage } from '../models/usage.js';

/** A model's price in any currency unit per million tokens. */
export interface ModelPrice {
  readonly inputPerMillion: number;
  readonly outputPerMillion: number;
  /** Price of cached input tokens (`usage.cachedTokens`, part of `inputTokens`); default: `inputPerMillion`. */
  readonly cachedInputPerMillion?: number;
  /** Price of input tokens written to the prompt cache (`usage.cacheWriteTokens`, part of `inputTokens`); default: `inputPerMillion`. */
  readonly cacheWritePerMillion?: number;
}

/** Prices by model id (`ChatModel.id`). */
export type PriceTable = Readonly<Record<string, ModelPrice>>;

/**
 * What one call cost. Cached and cache-write tokens are counted inside `inputTokens` (as
 * OpenAI-compatible servers report them) and priced at `cachedInputPerMillion` and
 * `cacheWritePerMillion`; reasoning tokens are inside `outputTokens`.
 */
export function costOf(price: ModelPrice | undefined, usage: Usage | undefined): number {
  if (!price || !usage) return 0;
  const cached = Math.min(usage.cachedTokens ?? 0, usage.inputTokens);
  // A server that reports more than it counted cannot make the uncached part negative.
  const written = Math.min(usage.cacheWriteTokens ?? 0, usage.inputTokens - cached);
  const cachedPrice = price.cachedInputPerMillion ?? price.inputPerMillion;
  const writePrice = price.cacheWritePerMillion ?? price.inputPerMillion;
  const input = (usage.inputTokens - cached - written) * price.inputPerMillion + cached * cachedPrice + written * writePrice;
  return (input + usage.outputTokens * price.outputPerMillion) / 1e6;
}
