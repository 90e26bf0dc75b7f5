import type { AgentEvent, Usage } from '@replan/core';
import type { TokenCount } from '../../web/src/wire-types.js';

export const noTokens = (): TokenCount => ({ input: 0, output: 0, reasoning: 0, cached: 0 });

export function tokensOf(usage: Usage): TokenCount {
  return {
    input: usage.inputTokens,
    output: usage.outputTokens,
    reasoning: usage.reasoningTokens ?? 0,
    cached: usage.cachedTokens ?? 0,
  };
}

/** The tokens the events' model calls used (the `usage` stored on each event). */
export function sumTokens(events: readonly AgentEvent[]): TokenCount {
  let input = 0;
  let output = 0;
  let reasoning = 0;
  let cached = 0;
  for (const event of events) {
    const u = event.usage;
    if (!u) continue;
    input += u.inputTokens;
    output += u.outputTokens;
    reasoning += u.reasoningTokens ?? 0;
    cached += u.cachedTokens ?? 0;
  }
  return { input, output, reasoning, cached };
}
