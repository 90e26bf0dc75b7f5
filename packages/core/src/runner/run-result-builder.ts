import type { AgentEvent, RunStatus } from '../events/agent-event.js';
import type { GuardrailTrip } from '../events/guardrail-verdict.js';
import type { RunResult } from '../events/run-result.js';
import type { CompensationReport } from '../errors/compensation-error.js';
import type { RunBudget } from '../invocation/run-limits.js';
import type { PriceTable } from '../models/model-prices.js';
import { emptyUsage } from '../models/usage.js';
import type { SessionKey } from '../sessions/session.js';
import type { SessionStore } from '../sessions/session-store.js';
import { readInvocation } from './invocation-log.js';
import { sessionTotalsWithChildren } from './session-totals.js';
import { storedCompensation } from './stored-compensation.js';

/** How a run ended: its status, and the error or the guardrail that ended it. */
export interface RunEnd {
  readonly status: RunStatus;
  readonly error?: Error | undefined;
  readonly guardrail?: GuardrailTrip | undefined;
  /** What compensation undid (a run cancelled with `compensate`); read from the log when absent. */
  readonly compensation?: CompensationReport | undefined;
}

/** Where a `RunResult` is read from: the session's log as it stands, and what this run spent. */
export interface RunResultSource {
  readonly store: SessionStore;
  readonly session: SessionKey & { readonly events: readonly AgentEvent[] };
  readonly invocationId: string;
  readonly prices: PriceTable | undefined;
  /** This run's spending; absent for a run that ran nothing now (an ended or still waiting invocation returned as stored). */
  readonly budget?: RunBudget | undefined;
}

/**
 * The one place a `RunResult` is built, for a run that ran (the drive) and for one returned as stored
 * (`resume` of an ended or waiting invocation, a child session's): the answer only when the run
 * completed (a blocked answer stays withheld), open interrupts only when it is interrupted.
 */
export async function buildRunResult(source: RunResultSource, end: RunEnd): Promise<RunResult> {
  const { status, error, guardrail } = end;
  const log = readInvocation(source.session.events, source.invocationId);
  const final = status === 'completed' ? log?.final : undefined;
  const budget = source.budget;
  const compensation = end.compensation ?? storedCompensation(source.session.events, source.invocationId);
  return {
    status,
    output: final?.text,
    ...(final?.structured !== undefined ? { structured: final.structured } : {}),
    ...(final?.partial ? { partial: true, notRun: final.notRun ?? [] } : {}),
    sessionId: source.session.id,
    invocationId: source.invocationId,
    interrupts: status === 'interrupted' ? (log?.openInterrupts ?? []) : [],
    usage: budget ? budget.usage : emptyUsage(),
    modelCalls: budget ? budget.modelCalls : 0,
    toolCalls: budget ? budget.toolCalls : 0,
    cost: budget ? budget.cost : 0,
    breakdown: budget ? budget.breakdown() : { byAgent: {}, byLabel: {} },
    session: await sessionTotalsWithChildren(source.store, source.session, source.prices),
    ...(error ? { error } : {}),
    ...(guardrail ? { guardrail } : {}),
    ...(compensation ? { compensation } : {}),
  };
}
