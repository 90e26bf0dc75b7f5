import type { AgentEvent } from '@replan/core';
import type { BudgetAmountsView, RunBudgetView, SessionDigest } from '../../web/src/wire-types.js';

const AMOUNTS = ['tokens', 'cost', 'modelCalls', 'timeMs'] as const;
const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

/** The finite numbers of a stored amounts object (a log is read, not trusted: anything else is dropped). */
function amountsOf(value: unknown): BudgetAmountsView | undefined {
  if (!isObject(value)) return undefined;
  const out: Record<string, number> = {};
  for (const a of AMOUNTS) if (typeof value[a] === 'number' && Number.isFinite(value[a])) out[a] = value[a];
  return out;
}

/** The events of the log's last invocation (contiguous at its end). */
function lastInvocation(events: readonly AgentEvent[]): readonly AgentEvent[] {
  const id = events.at(-1)?.invocationId;
  let start = events.length;
  while (start > 0 && events[start - 1]?.invocationId === id) start--;
  return events.slice(start);
}

/**
 * The last run's budget as it ended: the `meta.budget` the runner stores on a run's end event
 * (completed, blocked, or the error that ended it) when the run had limits; none while a resume
 * of it has not ended.
 */
export function runBudgetOf(events: readonly AgentEvent[]): RunBudgetView | undefined {
  const run = lastInvocation(events);
  for (let i = run.length - 1; i >= 0; i--) {
    // A resume (each writes its marker) runs on a budget of its own: what ended before it is not this run's.
    if (run[i]?.actions?.resumeValues) return undefined;
    const stored = run[i]?.meta?.budget;
    if (!isObject(stored)) continue;
    const [limits, used, left] = [amountsOf(stored.limits), amountsOf(stored.used), amountsOf(stored.left)];
    if (!limits || !used || !left) return undefined;
    const reserve = amountsOf(stored.reserve);
    return { limits, used, left, ...(reserve ? { reserve } : {}), onExhausted: stored.onExhausted === 'answer' ? 'answer' : 'stop' };
  }
  return undefined;
}

/** A step not run as text: a linear step's string, or an object step's `task` (graph steps with their id). */
function stepText(step: unknown): string {
  if (typeof step === 'string') return step;
  if (isObject(step) && typeof step.task === 'string') return typeof step.id === 'string' ? `${step.id}: ${step.task}` : step.task;
  return JSON.stringify(step) ?? String(step);
}

/** The last run's answer, when it was given from partial work: the steps it did not run. */
export function partialAnswerOf(events: readonly AgentEvent[]): SessionDigest['partial'] {
  const run = lastInvocation(events);
  for (let i = run.length - 1; i >= 0; i--) {
    const final = run[i]?.partial ? undefined : run[i]?.actions?.final;
    if (!final) continue;
    return final.partial ? { notRun: (final.notRun ?? []).map(stepText) } : undefined;
  }
  return undefined;
}
