import type { AgentEvent } from '../events/agent-event.js';
import { emptyUsage } from '../models/usage.js';
import type { RunResult } from '../events/run-result.js';
import type { ObserverHub } from './observer-hub.js';
import type { RunStartInfo } from './run-observer.js';

const scopeOf = (start: RunStartInfo) => ({
  appName: start.appName,
  userId: start.userId,
  sessionId: start.sessionId,
  invocationId: start.invocationId,
  time: Date.now(),
});

/**
 * Reports how a run ended (its open interrupts first, when it stopped for a human). A child run
 * (`start.parent`) reports no interrupt of its own: its question reaches observers once, as the
 * parent run's interrupt, with the nested id a human answers.
 */
export function reportRunEnd(hub: ObserverHub, start: RunStartInfo, result: RunResult): void {
  if (result.status === 'interrupted' && !start.parent) hub.notify({ kind: 'interrupt', ...scopeOf(start), interrupts: result.interrupts });
  hub.notify({
    kind: 'run-end',
    ...scopeOf(start),
    status: result.status,
    usage: result.usage,
    cost: result.cost,
    result,
    ...(result.error ? { error: result.error } : {}),
  });
}

/** Reports a run that threw instead of ending with a result (e.g. its input or resume marker was not stored). */
export function reportRunThrew(hub: ObserverHub, start: RunStartInfo, error: unknown): void {
  hub.notify({
    kind: 'run-end',
    ...scopeOf(start),
    status: 'failed',
    usage: emptyUsage(),
    cost: 0,
    error: error instanceof Error ? error : new Error(String(error)),
  });
}

/** Awaits a started run and reports how it ended: its result, or the error it threw (rethrown). */
export async function reportedRun(hub: ObserverHub, start: RunStartInfo, running: Promise<RunResult>): Promise<RunResult> {
  let result: RunResult;
  try {
    result = await running;
  } catch (error) {
    reportRunThrew(hub, start, error);
    throw error;
  }
  reportRunEnd(hub, start, result);
  return result;
}

/** What observers kept with an invocation's input event (`RunObserver.carry`), if anything. */
export function carriedOf(event: AgentEvent | undefined): Record<string, string> | undefined {
  const value = event?.meta?.observe;
  if (!value || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const pairs = Object.entries(value).filter((e): e is [string, string] => typeof e[1] === 'string');
  return pairs.length ? Object.fromEntries(pairs) : undefined;
}
