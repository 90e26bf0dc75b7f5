import { type AgentEvent, type PriceTable, type Session, sessionTotals } from '@replan/core';
import { guardrailBlockText } from '@replan/core/agent-kit';
import type { InterruptView, SessionDigest } from '../../web/src/wire-types.js';
import { asText } from './event-views.js';
import { planRevisions } from './plan-revisions.js';
import { partialAnswerOf, runBudgetOf } from './run-budget.js';
import { statusOf } from './session-status.js';
import { storedBreakdown, studioStepKey } from './step-usage.js';
import { sumTokens, tokensOf } from './tokens.js';

/** The last invocation's interrupts no resume answered, in the order they were asked. */
export function openInterrupts(events: readonly AgentEvent[]): InterruptView[] {
  const answered = new Set<string>();
  for (const event of events) for (const id in event.actions?.resumeValues ?? {}) answered.add(id);
  const open: InterruptView[] = [];
  const seen = new Set<string>();
  const last = events.at(-1)?.invocationId;
  events.forEach((event, eventIndex) => {
    const interrupt = event.actions?.interrupt;
    if (event.invocationId !== last || !interrupt || answered.has(interrupt.id) || seen.has(interrupt.id)) return;
    seen.add(interrupt.id);
    open.push({
      id: interrupt.id,
      reason: interrupt.reason,
      payload: asText(interrupt.payload),
      ...(interrupt.toolName ? { toolName: interrupt.toolName } : {}),
      eventIndex,
      path: event.path,
    });
  });
  return open;
}

/** The plan versions, each step with the tokens its model calls used (and their cost, given prices). */
function withStepUsage(events: readonly AgentEvent[], prices: PriceTable | undefined) {
  const byStep = new Map(Object.entries(storedBreakdown(events, prices).byLabel).map(([k, b]) => [studioStepKey(k), b]));
  return planRevisions(events).map((revision) => ({
    ...revision,
    steps: revision.steps.map((step) => {
      const bucket = byStep.get(step.key);
      if (!bucket) return step;
      return { ...step, tokens: tokensOf(bucket.usage), modelCalls: bucket.modelCalls, ...(prices ? { cost: bucket.cost } : {}) };
    }),
  }));
}

/** What the session's stored model calls cost with `prices`, and how many could not be priced. */
function sessionCost(events: readonly AgentEvent[], prices: PriceTable) {
  const totals = sessionTotals(events, prices);
  return { total: totals.cost, unpricedModelCalls: totals.unpricedModelCalls };
}

/** Everything the session view shows above the timeline, computed from the stored session (priced with `prices`, if given). */
export function sessionDigest(session: Session, prices?: PriceTable): SessionDigest {
  const { events } = session;
  const reading = statusOf(events);
  const budget = runBudgetOf(events);
  const partial = reading.status === 'completed' ? partialAnswerOf(events) : undefined;
  const agents: string[] = [];
  for (const event of events) if (!agents.includes(event.path)) agents.push(event.path);
  return {
    key: { appName: session.appName, userId: session.userId, id: session.id },
    version: session.version,
    status: reading.status,
    tokens: sumTokens(events),
    ...(prices ? { cost: sessionCost(events, prices) } : {}),
    eventCount: events.length,
    updatedAt: events.at(-1)?.timestamp ?? 0,
    agents,
    revisions: withStepUsage(events, prices),
    interrupts: reading.status === 'interrupted' ? openInterrupts(events) : [],
    ...(reading.error ? { error: reading.error } : {}),
    ...(reading.output !== undefined ? { output: reading.output } : {}),
    ...(reading.guardrail ? { blocked: guardrailBlockText(reading.guardrail) } : {}),
    ...(budget ? { budget } : {}),
    ...(partial ? { partial } : {}),
  };
}
