import { costOfEvent, type AgentEvent, type InvocationContext } from '@replan/core';
import type { PlanExecuteKeys } from '../base/session-keys.js';
import { stepText, stepsOf } from '../base/plan-schema.js';
import type { ResolvedPlanMemory } from '../base/plan-memory-options.js';
import { objectiveOf, planScope, type PlanMemoryMetadata, type PlanOutcome } from './plan-memory.js';

/** Where the root finds its parts' events. */
export interface PlanParts {
  readonly keys: PlanExecuteKeys;
  readonly plannerName: string;
  readonly loopName: string;
}

/** What the root recorded before storing the plan memory (`event.meta.memory`). */
interface KeptPlan {
  readonly kind: 'plan-kept';
  readonly objective: string;
  readonly metadata: PlanMemoryMetadata;
}

const keptIn = (e: AgentEvent) => (e.meta?.memory as { kind?: string } | undefined)?.kind === 'plan-kept';

/**
 * Stores this run's plan as a `plan` memory when the run ends (answered, or out of iterations):
 * the objective as its text; the plan it started from, its revisions and its outcome as metadata.
 * The memory is recorded as an event first and stored after, found again by that event's id: a run
 * resumed after a crash stores it once. A store that is down: the run's answer stands, an event says so.
 */
export async function* keepPlan(
  ctx: InvocationContext,
  memory: ResolvedPlanMemory,
  parts: PlanParts,
  status: PlanOutcome['status'],
): AsyncGenerator<AgentEvent, void, undefined> {
  let recorded = ctx.ownEvents().find(keptIn);
  if (!recorded) {
    const objective = objectiveOf(ctx);
    if (!objective) return;
    const kept: KeptPlan = { kind: 'plan-kept', objective, metadata: planMetadata(ctx, parts, status) };
    recorded = ctx.event({ meta: { kind: 'plan-memory', memory: kept } });
    yield recorded;
  }
  const { objective, metadata } = (recorded.meta as { memory: KeptPlan }).memory;
  const scope = planScope(ctx, memory);
  try {
    const hits = await memory.store.search({ scope, query: objective, k: 10, kinds: ['plan'] });
    if (hits.some((h) => h.item.source?.eventId === recorded.id)) return;
    await memory.store.put({
      scope,
      kind: 'plan',
      text: objective,
      metadata: metadata as unknown as Record<string, unknown>,
      source: { sessionId: ctx.session.id, invocationId: ctx.invocationId, eventId: recorded.id },
    });
  } catch (error) {
    if (ctx.signal.aborted) throw error;
    yield ctx.event({
      meta: { kind: 'plan-memory', memory: { kind: 'plan-not-kept', failed: (error as Error)?.message ?? String(error) } },
    });
  }
}

/**
 * True when `next` only lists the steps of `before` still to run (a linear replanner carrying the
 * plan on after a step): not a revision.
 */
function continues(before: unknown, next: unknown): boolean {
  const a = stepsOf(before).map((s) => JSON.stringify(s));
  const b = stepsOf(next).map((s) => JSON.stringify(s));
  return b.length <= a.length && b.every((s, i) => s === a[a.length - b.length + i]);
}

/** The plan, revisions and outcome of this invocation, read from its events and state. */
function planMetadata(ctx: InvocationContext, parts: PlanParts, status: PlanOutcome['status']): PlanMemoryMetadata {
  const { keys } = parts;
  const plannerPath = `${ctx.path}/${parts.plannerName}`;
  const loopPath = `${ctx.path}/${parts.loopName}/`;
  const prices = ctx.services.budget.prices;
  let plan: unknown;
  const revisions: unknown[] = [];
  let review: string | undefined;
  let reusedFrom: string | undefined;
  let inputTokens = 0;
  let outputTokens = 0;
  let cost: number | undefined;
  for (const e of ctx.events) {
    if (e.invocationId !== ctx.invocationId || e.partial) continue;
    const delta = e.actions?.stateDelta;
    if (e.path === plannerPath) {
      if (delta && keys.Plan in delta) plan = delta[keys.Plan];
      if (typeof e.meta?.review === 'string') review = e.meta.review;
      const reused = e.meta?.reusedPlan as { memoryId?: string } | undefined;
      if (reused?.memoryId) reusedFrom = reused.memoryId;
    } else if (e.path.startsWith(loopPath) && delta && delta[keys.Plan] != null) {
      const next = delta[keys.Plan];
      if (!continues(revisions.at(-1) ?? plan, next)) revisions.push(next);
    }
    if (e.usage) {
      inputTokens += e.usage.inputTokens ?? 0;
      outputTokens += e.usage.outputTokens ?? 0;
      const c = costOfEvent(e, prices);
      if (c !== undefined) cost = (cost ?? 0) + c;
    }
  }
  const executed = Array.isArray(ctx.state[keys.ExecutedSteps])
    ? (ctx.state[keys.ExecutedSteps] as { step?: unknown; error?: unknown }[])
    : [];
  const outcome: PlanOutcome = {
    status,
    steps: executed.length,
    failedSteps: executed.filter((s) => s.error !== undefined).map((s) => stepText(s.step)),
    ...(review ? { review } : {}),
    inputTokens,
    outputTokens,
  };
  return { plan: plan ?? null, revisions, outcome, ...(cost !== undefined ? { cost } : {}), ...(reusedFrom ? { reusedFrom } : {}) };
}
