import { messageText, systemMessage, userMessage, type Message, type ModelRequest } from '@replan/core';
import type { ResponseFormat } from '@replan/core/agent-kit';
import { quotePreamble, quotedBlock, quoteValue } from '@replan/core/agent-kit';

/** The default instruction of `consolidate`'s model call. */
export const CONSOLIDATION_INSTRUCTION = [
  'You keep long-term memory for an assistant. From the conversation quoted below, extract the facts worth',
  'remembering in later sessions: stable facts about the user, their preferences, decisions made and results',
  'that will still be true later. Each fact is one self-contained sentence. Leave out greetings, the steps of',
  'the work, and anything only true during this conversation. Return {"facts": [...]}, with [] when nothing is worth keeping.',
].join(' ');

/** The structured answer the call asks for. */
export const FACTS_FORMAT: ResponseFormat = {
  name: 'memories',
  strict: true,
  schema: {
    type: 'object',
    properties: { facts: { type: 'array', items: { type: 'string' } } },
    required: ['facts'],
    additionalProperties: false,
  },
};

// The conversation is bounded: the newest part is kept when it is longer.
const MAX_TRANSCRIPT_CHARS = 24_000;

/** The request of one consolidation: the instruction, then the conversation quoted as data. */
export function consolidationRequest(instruction: string, messages: readonly Message[], maxFacts: number): ModelRequest {
  const lines: string[] = [];
  for (const m of messages) {
    if (m.role === 'system') continue;
    const text = messageText(m).trim();
    if (text) lines.push(`[${m.role}] ${quoteValue(text)}`);
  }
  let kept = lines;
  let size = lines.reduce((n, l) => n + l.length + 1, 0);
  while (size > MAX_TRANSCRIPT_CHARS && kept.length > 1) {
    size -= (kept[0] as string).length + 1;
    kept = kept.slice(1);
  }
  const transcript = quotedBlock(kept, quotePreamble('The conversation'));
  return {
    messages: [systemMessage(`${instruction} At most ${maxFacts} facts.`), userMessage(transcript)],
    responseFormat: FACTS_FORMAT,
  };
}

/** The facts in a model answer (`{"facts": [...]}`, a code fence allowed), or what is wrong with it. */
export function factsOf(text: string, maxFacts: number): { facts: string[] } | { problem: string } {
  let json: unknown;
  try {
    json = JSON.parse(text.trim().replace(/^```(?:json)?\s*([\s\S]*?)\s*```$/, '$1'));
  } catch (error) {
    return { problem: `the answer is not JSON (${(error as Error).message})` };
  }
  const facts = (json as { facts?: unknown })?.facts;
  if (!Array.isArray(facts) || facts.some((f) => typeof f !== 'string')) return { problem: 'the answer is not {"facts": [strings]}' };
  const kept = [...new Set(facts.map((f: string) => f.trim()).filter(Boolean))];
  return { facts: kept.slice(0, maxFacts) };
}
