import { ConfigurationError } from '../errors/replan-error.js';
import type { Usage } from './usage.js';

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

const RATES = ['inputPerMillion', 'outputPerMillion', 'cachedInputPerMillion', 'cacheWritePerMillion'] as const;
const isRate = (value: unknown) => typeof value === 'number' && Number.isFinite(value) && value >= 0;

/**
 * Refuses a price table a run could not price with: a missing, negative or non-numeric rate would
 * otherwise make every cost `NaN` and `limits.maxCost` never trip.
 */
export function checkPriceTable(prices: PriceTable | undefined, where: string): void {
  if (prices === undefined) return;
  const bad = Object.entries(prices as Record<string, unknown>).filter(([, price]) => {
    if (typeof price !== 'object' || price === null) return true;
    const rates = price as Record<string, unknown>;
    if (!isRate(rates.inputPerMillion) || !isRate(rates.outputPerMillion)) return true;
    return RATES.some((rate) => rates[rate] !== undefined && !isRate(rates[rate]));
  });
  if (bad.length)
    throw new ConfigurationError(
      `${where}: each model id must map to { inputPerMillion, outputPerMillion } (numbers ≥ 0 per million tokens; ` +
        `cachedInputPerMillion and cacheWritePerMillion optional, also numbers ≥ 0); check ${bad.map(([id]) => JSON.stringify(id)).join(', ')}.`,
    );
}
