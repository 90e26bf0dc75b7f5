import type { AgentEvent, Usage } from '@replan/core';
import type { TokenCount } from '../../web/src/wire-types.js';

export const noTokens = (): TokenCount => ({ input: 0, output: 0, reasoning: 0, cached: 0, cacheWrite: 0 });

export function tokensOf(usage: Usage): TokenCount {
  return {
    input: usage.inputTokens,
    output: usage.outputTokens,
    reasoning: usage.reasoningTokens ?? 0,
    cached: usage.cachedTokens ?? 0,
    cacheWrite: usage.cacheWriteTokens ?? 0,
  };
}

/** The tokens the events' model calls used (the `usage` stored on each event). */
export function sumTokens(events: readonly AgentEvent[]): TokenCount {
  let sum = noTokens();
  for (const event of events) {
    if (!event.usage) continue;
    const u = tokensOf(event.usage);
    sum = {
      input: sum.input + u.input,
      output: sum.output + u.output,
      reasoning: sum.reasoning + u.reasoning,
      cached: sum.cached + u.cached,
      cacheWrite: sum.cacheWrite + u.cacheWrite,
    };
  }
  return sum;
}

/** ` · 40 cached · 10 cache write`: the prompt-cache share of the input, each part only when non-zero. */
export const cacheNote = (t: TokenCount): string =>
  `${t.cached ? ` · ${t.cached} cached` : ''}${t.cacheWrite ? ` · ${t.cacheWrite} cache write` : ''}`;
