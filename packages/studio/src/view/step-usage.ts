import { type AgentEvent, costOfEvent, type PriceTable, toolCallsOf, toolResultsOf } from '@replan/core';
import { addUsage, emptyUsage, type UsageBreakdown, type UsageBucket } from '@replan/core/agent-kit';
import { planExecuteEventKind } from '@replan/planexecute';
import { codeCallOf } from './code-call-view.js';

/**
 * The plan step an event belongs to, as the run's breakdown keys it: graph mode's step id, linear
 * mode's step number (`n<number>` is the studio's key for the same step).
 */
function stepOf(event: AgentEvent): string | undefined {
  const kind = planExecuteEventKind(event);
  if (!kind || (kind.kind !== 'step-progress' && kind.kind !== 'step-result')) return undefined;
  return kind.stepId ?? String(kind.stepNumber);
}

type Tally = Record<string, { -readonly [K in keyof UsageBucket]: UsageBucket[K] }>;

const bucketOf = (tally: Tally, key: string) => {
  const bucket = tally[key] ?? { usage: emptyUsage(), modelCalls: 0, cost: 0, latencyMs: 0, toolCalls: 0 };
  tally[key] = bucket;
  return bucket;
};

const add = (tally: Tally, key: string, event: AgentEvent, cost: number) => {
  const bucket = bucketOf(tally, key);
  bucket.usage = addUsage(bucket.usage, event.usage);
  bucket.modelCalls++;
  bucket.cost += cost;
};

/** Plan–execute's decisions are tool calls in form only: a repair's error results for them ran no tool. */
const isDecision = (event: AgentEvent) => {
  const kind = planExecuteEventKind(event)?.kind;
  return kind === 'repair' || kind === 'planning';
};

/**
 * Model calls (and tool calls, from the stored results) by agent path and by plan step, from the `usage` stored on the session's events —
 * what `RunResult.breakdown` says of one run, for a whole stored session. `cost` is priced with
 * `prices` from each event's stored `meta.model` (0 for calls it cannot price); the log keeps no
 * latencies, so `latencyMs` is 0.
 */
export function storedBreakdown(events: readonly AgentEvent[], prices?: PriceTable): UsageBreakdown {
  const byAgent: Tally = {};
  const byStep: Tally = {};
  // A code step's inner calls are stored untagged: they belong to the step of their code call.
  const stepOfCall = new Map<string, string>();
  for (const event of events) {
    const step = stepOf(event);
    if (event.message?.role === 'assistant' && step !== undefined)
      for (const call of toolCallsOf(event.message)) stepOfCall.set(call.id, step);
    if (event.message?.role === 'tool' && !event.partial && !isDecision(event)) {
      // A stored result is a tool that ran (its `toolCalls`).
      const results = toolResultsOf(event.message).length;
      const at = step ?? stepOfCall.get(codeCallOf(event)?.id ?? '');
      bucketOf(byAgent, event.path).toolCalls += results;
      if (at !== undefined) bucketOf(byStep, at).toolCalls += results;
    }
    if (!event.usage) continue;
    const cost = costOfEvent(event, prices) ?? 0;
    add(byAgent, event.path, event, cost);
    if (step !== undefined) add(byStep, step, event, cost);
  }
  return { byAgent, byLabel: byStep };
}

/** The tools a stored session ran (its stored tool results, plan–execute's decisions left out). */
export function storedToolCalls(events: readonly AgentEvent[]): number {
  let n = 0;
  for (const event of events)
    if (event.message?.role === 'tool' && !event.partial && !isDecision(event)) n += toolResultsOf(event.message).length;
  return n;
}

/** The studio's step key (graph id, or `n<number>` for a linear step) of a breakdown's step key. */
export const studioStepKey = (breakdownKey: string): string => (/^\d+$/.test(breakdownKey) ? `n${breakdownKey}` : breakdownKey);

/** The tools a step ran (`toolCalls` of its breakdown bucket), by the studio's step key. */
export function stepToolCalls(breakdown: UsageBreakdown, studioKey: string): number {
  // A graph step's id is its key in both; a linear step is `n<number>` here and `<number>` there.
  const bucket = breakdown.byLabel[studioKey] ?? breakdown.byLabel[studioKey.replace(/^n(\d+)$/, '$1')];
  return bucket?.toolCalls ?? 0;
}
