import type { AgentEvent, Session } from '@replan/core';
import type { InterruptView, SessionDigest } from '../../web/src/wire-types.js';
import { asText } from './event-views.js';
import { planRevisions } from './plan-revisions.js';
import { statusOf } from './session-status.js';
import { storedBreakdown, studioStepKey } from './step-usage.js';
import { sumTokens, tokensOf } from './tokens.js';

function openInterrupts(events: readonly AgentEvent[]): InterruptView[] {
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

/** The plan versions, each step with the tokens its model calls used. */
function withStepUsage(events: readonly AgentEvent[]) {
  const byStep = new Map(Object.entries(storedBreakdown(events).byStep).map(([k, b]) => [studioStepKey(k), b]));
  return planRevisions(events).map((revision) => ({
    ...revision,
    steps: revision.steps.map((step) => {
      const bucket = byStep.get(step.key);
      return bucket ? { ...step, tokens: tokensOf(bucket.usage), modelCalls: bucket.modelCalls } : step;
    }),
  }));
}

/** Everything the session view shows above the timeline, computed from the stored session. */
export function sessionDigest(session: Session): SessionDigest {
  const { events } = session;
  const reading = statusOf(events);
  const agents: string[] = [];
  for (const event of events) if (!agents.includes(event.path)) agents.push(event.path);
  return {
    key: { appName: session.appName, userId: session.userId, id: session.id },
    version: session.version,
    status: reading.status,
    tokens: sumTokens(events),
    eventCount: events.length,
    updatedAt: events.at(-1)?.timestamp ?? 0,
    agents,
    revisions: withStepUsage(events),
    interrupts: reading.status === 'interrupted' ? openInterrupts(events) : [],
    ...(reading.error ? { error: reading.error } : {}),
    ...(reading.output !== undefined ? { output: reading.output } : {}),
  };
}
