import type { AgentEvent } from '@replan/core';
import type { MemoryEntryView, MemoryView } from '../../web/src/wire-types.js';

// The shapes @replan/memory's middleware and @replan/planexecute's memory record in `event.meta`
// (read loosely: a log written by another version shows what it can).
interface Recalled {
  readonly kind?: string;
  readonly text?: string;
  readonly objective?: string;
  readonly score?: number;
  readonly sessionId?: string;
  readonly source?: { readonly sessionId?: string };
}
interface MemoryMeta {
  readonly kind?: string;
  readonly recalled?: readonly Recalled[];
  readonly unavailable?: string;
  readonly facts?: readonly string[];
  readonly failed?: string;
  readonly objective?: string;
}
interface ReusedPlan {
  readonly memoryId?: string;
  readonly objective?: string;
  readonly similarity?: number | null;
  readonly adapted?: boolean;
  readonly sessionId?: string;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
const from = (sessionId: string | undefined) => (sessionId ? { from: `session ${sessionId}` } : {});

function recalledEntry(r: Recalled): MemoryEntryView {
  return {
    kind: r.objective !== undefined ? 'plan' : String(r.kind ?? 'memory'),
    text: String(r.objective ?? r.text ?? ''),
    ...from(r.sessionId ?? r.source?.sessionId),
    ...(typeof r.score === 'number' ? { score: r.score } : {}),
  };
}

/** What an event did with long-term memory, or `undefined` when it did nothing with it. */
export function memoryView(event: AgentEvent): MemoryView | undefined {
  const reused = event.meta?.reusedPlan as ReusedPlan | undefined;
  if (reused?.memoryId) {
    return {
      heading: `Reused a past plan (${reused.adapted ? 'adapted' : 'as written'})`,
      entries: [
        {
          kind: 'plan',
          text: String(reused.objective ?? ''),
          ...from(reused.sessionId),
          ...(typeof reused.similarity === 'number' ? { score: reused.similarity } : {}),
        },
      ],
    };
  }
  const memory = event.meta?.memory as MemoryMeta | undefined;
  if (!memory || typeof memory !== 'object') return undefined;
  const problem = memory.unavailable ?? memory.failed;
  const withProblem = problem ? { problem: String(problem) } : {};
  if (Array.isArray(memory.recalled)) {
    const entries = memory.recalled.map(recalledEntry);
    const what =
      memory.kind === 'plan-recall' ? plural(entries.length, 'past plan') : plural(entries.length, 'memory').replace('memorys', 'memories');
    return { heading: `Recalled ${what}`, entries, ...withProblem };
  }
  if (memory.kind === 'plan-kept')
    return { heading: "Kept this run's plan", entries: [{ kind: 'plan', text: String(memory.objective ?? '') }] };
  if (memory.kind === 'plan-not-kept') return { heading: "This run's plan was not kept", entries: [], ...withProblem };
  if (Array.isArray(memory.facts)) {
    const entries = memory.facts.map((text) => ({ kind: 'fact', text: String(text) }));
    return { heading: `Kept ${plural(entries.length, 'fact')}`, entries, ...withProblem };
  }
  return undefined;
}

/** `Recalled 2 memories: …` — a memory event in one line. */
export function memoryLine(view: MemoryView): string {
  const texts = view.entries.map((e) => e.text).join(' · ');
  return `${view.heading}${texts ? `: ${texts}` : ''}${view.problem ? ` (${view.problem})` : ''}`;
}
