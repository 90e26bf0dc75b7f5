/** Token counts reported by a model call. */
export interface Usage {
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly reasoningTokens?: number;
  /** Input tokens read from the provider's prompt cache (part of `inputTokens`). */
  readonly cachedTokens?: number;
  /** Input tokens written to the provider's prompt cache (part of `inputTokens`; Anthropic bills them above the input price). */
  readonly cacheWriteTokens?: number;
}

export const emptyUsage = (): Usage => ({ inputTokens: 0, outputTokens: 0 });

export function addUsage(a: Usage, b: Usage | undefined): Usage {
  if (!b) return a;
  const sum: { -readonly [K in keyof Usage]: Usage[K] } = {
    inputTokens: a.inputTokens + b.inputTokens,
    outputTokens: a.outputTokens + b.outputTokens,
  };
  if (a.reasoningTokens !== undefined || b.reasoningTokens !== undefined)
    sum.reasoningTokens = (a.reasoningTokens ?? 0) + (b.reasoningTokens ?? 0);
  if (a.cachedTokens !== undefined || b.cachedTokens !== undefined) sum.cachedTokens = (a.cachedTokens ?? 0) + (b.cachedTokens ?? 0);
  if (a.cacheWriteTokens !== undefined || b.cacheWriteTokens !== undefined)
    sum.cacheWriteTokens = (a.cacheWriteTokens ?? 0) + (b.cacheWriteTokens ?? 0);
  return sum;
}

export const totalTokens = (u: Usage): number => u.inputTokens + u.outputTokens;
