import { quotePreamble, quotedBlock, quoteValue } from '@replan/core/agent-kit';
import type { MemoryHit, MemoryItem } from '../memory-store.js';

/** What a recall records of each memory it put into a request (JSON, in the event's `meta.memory`). */
export interface RecalledMemory {
  readonly id: string;
  readonly kind: MemoryItem['kind'];
  readonly score: number;
  readonly text: string;
  readonly createdAt: number;
  readonly source?: MemoryItem['source'];
}

// About four characters a token (core's estimate for English and JSON): a budget, not a bill.
const CHARS_PER_TOKEN = 4;
/** The estimated tokens of a text. */
export const tokensOf = (text: string): number => Math.ceil(text.length / CHARS_PER_TOKEN);

/** Where a memory came from, in words: `session s1, 2026-11-28` (no source: `source unknown`). */
export function sourceWords(memory: Pick<RecalledMemory, 'source' | 'createdAt'>): string {
  const date = new Date(memory.createdAt).toISOString().slice(0, 10);
  return memory.source ? `session ${memory.source.sessionId}, ${date}` : `source unknown, ${date}`;
}

/** One memory as a quoted line: kind, where it came from, and its text made safe (markers broken, lines prefixed). */
export function memoryLine(memory: RecalledMemory): string {
  return `[${memory.kind} from ${quoteValue(sourceWords(memory))}] ${quoteValue(memory.text)}`;
}

/** The recalled form of a search hit. */
export function recalledOf(hit: MemoryHit): RecalledMemory {
  const { item } = hit;
  return {
    id: item.id,
    kind: item.kind,
    score: hit.score,
    text: item.text,
    createdAt: item.createdAt,
    ...(item.source ? { source: item.source } : {}),
  };
}

/**
 * The best hits that fit `maxTokens`, best first: a memory that does not fit is skipped (a
 * smaller one after it may still fit), so one huge memory cannot crowd out the rest.
 */
export function withinBudget(hits: readonly MemoryHit[], maxTokens: number): RecalledMemory[] {
  const out: RecalledMemory[] = [];
  let used = 0;
  for (const hit of hits) {
    const recalled = recalledOf(hit);
    const cost = tokensOf(memoryLine(recalled));
    if (used + cost > maxTokens) continue;
    used += cost;
    out.push(recalled);
  }
  return out;
}

/** The quoted block of recalled memories a model reads: data, never instructions. */
export function memoryBlock(memories: readonly RecalledMemory[]): string {
  return quotedBlock(memories.map(memoryLine), quotePreamble('Memories from earlier sessions (with where each came from)'));
}
