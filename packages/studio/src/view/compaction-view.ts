import { type AgentEvent, eventKind } from '@replan/core';
import type { CompactionView } from '../../web/src/wire-types.js';

/**
 * What a compaction event (`actions.compaction`) summarised: how many of its agent's turns (model
 * answers since the previous summary, in the same run of the agent), the estimated request size
 * before and after, and the summary. `undefined` for any other event.
 */
export function compactionView(events: readonly AgentEvent[] | undefined, index: number): CompactionView | undefined {
  const event = events?.[index];
  const kind = event ? eventKind(event) : undefined;
  if (!event || kind?.kind !== 'compaction') return undefined;
  const { through, tokensBefore, tokensAfter, summary } = kind.compaction;
  let end = index - 1;
  while (end >= 0 && events?.[end]?.id !== through) end--;
  let turns = 0;
  for (let i = end; i >= 0; i--) {
    const e = events?.[i] as AgentEvent;
    if (e.author === 'user' || (e.path === event.path && (e.actions?.compaction || e.actions?.final))) break;
    if (e.path === event.path && !e.partial && e.message?.role === 'assistant') turns++;
  }
  return { turns, tokensBefore, tokensAfter, summary };
}

/** `summarised 12 turns · context ~23,900 → ~4,100 tokens`: a compaction in one line. */
export function compactionLine(view: CompactionView): string {
  const turns = `summarised ${view.turns.toLocaleString('en')} turn${view.turns === 1 ? '' : 's'}`;
  return `${turns} · context ~${view.tokensBefore.toLocaleString('en')} → ~${view.tokensAfter.toLocaleString('en')} tokens`;
}
