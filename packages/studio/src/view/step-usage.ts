import { type AgentEvent, costOfEvent, type PriceTable } from '@replan/core';
import { addUsage, emptyUsage, type UsageBreakdown, type UsageBucket } from '@replan/core/agent-kit';
import { planExecuteEventKind } from '@replan/planexecute';

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

const add = (tally: Tally, key: string, event: AgentEvent, cost: number) => {
  const bucket = tally[key] ?? { usage: emptyUsage(), modelCalls: 0, cost: 0, latencyMs: 0 };
  tally[key] = bucket;
  bucket.usage = addUsage(bucket.usage, event.usage);
  bucket.modelCalls++;
  bucket.cost += cost;
};

/**
 * Model calls by agent path and by plan step, from the `usage` stored on the session's events —
 * what `RunResult.breakdown` says of one run, for a whole stored session. `cost` is priced with
 * `prices` from each event's stored `meta.model` (0 for calls it cannot price); the log keeps no
 * latencies, so `latencyMs` is 0.
 */
export function storedBreakdown(events: readonly AgentEvent[], prices?: PriceTable): UsageBreakdown {
  const byAgent: Tally = {};
  const byStep: Tally = {};
  for (const event of events) {
    if (!event.usage) continue;
    const cost = costOfEvent(event, prices) ?? 0;
    add(byAgent, event.path, event, cost);
    const step = stepOf(event);
    if (step !== undefined) add(byStep, step, event, cost);
  }
  return { byAgent, byLabel: byStep };
}

/** The studio's step key (graph id, or `n<number>` for a linear step) of a breakdown's step key. */
export const studioStepKey = (breakdownKey: string): string => (/^\d+$/.test(breakdownKey) ? `n${breakdownKey}` : breakdownKey);
