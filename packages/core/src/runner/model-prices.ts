import type { Usage } from '../models/usage.js';

/** A model's price in any currency unit per million tokens. */
export interface ModelPrice {
  readonly inputPerMillion: number;
  readonly outputPerMillion: number;
  /** Price of cached input tokens (`usage.cachedTokens`, part of `inputTokens`); default: `inputPerMillion`. */
  readonly cachedInputPerMillion?: number;
}

/** Prices by model id (`ChatModel.id`). */
export type PriceTable = Readonly<Record<string, ModelPrice>>;

/**
 * What one call cost. Cached tokens are counted inside `inputTokens` (as OpenAI-compatible servers
 * report them) and priced at `cachedInputPerMillion`; reasoning tokens are inside `outputTokens`.
 */
export function costOf(price: ModelPrice | undefined, usage: Usage | undefined): number {
  if (!price || !usage) return 0;
  const cached = Math.min(usage.cachedTokens ?? 0, usage.inputTokens);
  const cachedPrice = price.cachedInputPerMillion ?? price.inputPerMillion;
  return ((usage.inputTokens - cached) * price.inputPerMillion + cached * cachedPrice + usage.outputTokens * price.outputPerMillion) / 1e6;
}
