import { userMessage, type AgentEvent, type InvocationContext, type Message } from '@replan/core';
import { quotePreamble, quotedBlock, quoteValue } from '@replan/core/agent-kit';
import type { MemoryHit } from '@replan/memory';
import { tagged } from '../base/event-tags.js';
import { stepText, stepsOf } from '../base/plan-schema.js';
import type { ResolvedPlanMemory } from '../base/plan-memory-options.js';
import { objectiveOf, planScope, type PlanMemoryMetadata } from './plan-memory.js';

/** A past plan as the planner's recall recorded it (`event.meta.memory.recalled`). */
export interface RecalledPlan {
  readonly id: string;
  readonly score: number;
  readonly objective: string;
  readonly sessionId?: string;
  readonly createdAt: number;
  readonly metadata: PlanMemoryMetadata;
}

/** What the planner's recall recorded: the past plans shown, the one to reuse, or why memory was unavailable. */
export interface PlanRecall {
  readonly kind: 'plan-recall';
  readonly query: string;
  readonly recalled: readonly RecalledPlan[];
  /** With `reusePlans`: how close the best past objective is, 0–1 (see `similarityOf`). */
  readonly similarity?: number;
  /** The id of the past plan close enough to reuse (`reusePlans`). */
  readonly reuse?: string;
  readonly unavailable?: string;
}

/** The planner's recorded recall in this attempt, if any. */
export function recordedRecall(ctx: InvocationContext): PlanRecall | undefined {
  for (const e of ctx.ownEvents()) {
    const memory = e.meta?.memory as PlanRecall | undefined;
    if (memory?.kind === 'plan-recall') return memory;
  }
  return undefined;
}

/**
 * Searches the plans of earlier runs with this run's objective, once: the result is recorded as a
 * planner event (tagged `planning`), so a resumed run neither searches again nor decides otherwise.
 * A store that is down or an embedder that fails: no past plans, and the record says why.
 */
export async function* recallPlans(ctx: InvocationContext, memory: ResolvedPlanMemory): AsyncGenerator<AgentEvent, PlanRecall, undefined> {
  const done = recordedRecall(ctx);
  if (done) return done;
  const query = objectiveOf(ctx);
  let recall: PlanRecall;
  try {
    const k = Math.max(memory.k, memory.reusePlans ? 1 : 0);
    const hits = k && query ? await memory.store.search({ scope: planScope(ctx, memory), query, k, kinds: ['plan'] }) : [];
    const recalled = hits.flatMap(recalledPlan);
    const best = recalled[0];
    const similarity =
      memory.reusePlans && best?.metadata.outcome?.status === 'completed' ? await similarityOf(ctx, memory, best) : undefined;
    const reuse = best && similarity !== undefined && similarity >= (memory.reusePlans?.minScore ?? Number.POSITIVE_INFINITY);
    recall = {
      kind: 'plan-recall',
      query,
      recalled,
      ...(similarity !== undefined ? { similarity } : {}),
      ...(reuse ? { reuse: best.id } : {}),
    };
  } catch (error) {
    if (isCallerMistake(error)) throw error;
    recall = { kind: 'plan-recall', query, recalled: [], unavailable: (error as Error)?.message ?? String(error) };
  }
  yield tagged(ctx.event({ meta: { kind: 'memory-recall', memory: recall } }), 'planning');
  return recall;
}

/**
 * How close a past objective is to this one, from 0 to 1, whatever the store scores with: its
 * score for this objective over its score for its own text (1: the same words; with an embedder,
 * the cosine). Raw BM25 scores grow with the store, so `minScore` could not be compared with them.
 */
async function similarityOf(ctx: InvocationContext, memory: ResolvedPlanMemory, best: RecalledPlan): Promise<number> {
  const own = await memory.store.search({ scope: planScope(ctx, memory), query: best.objective, k: 10, kinds: ['plan'] });
  const self = own.find((h) => h.item.id === best.id)?.score;
  return self && self > 0 ? Math.min(1, best.score / self) : 0;
}

/** A hit that is a plan memory with plan metadata (anything else in the store is skipped). */
function recalledPlan(hit: MemoryHit): RecalledPlan[] {
  const { item } = hit;
  const metadata = item.metadata as PlanMemoryMetadata | undefined;
  if (item.kind !== 'plan' || !metadata || metadata.plan === undefined || !metadata.outcome) return [];
  return [
    {
      id: item.id,
      score: hit.score,
      objective: item.text,
      createdAt: item.createdAt,
      ...(item.source ? { sessionId: item.source.sessionId } : {}),
      metadata,
    },
  ];
}

// About four characters a token: a budget for the prompt, not a bill.
const CHARS_PER_TOKEN = 4;

/** One past plan as a quoted line: its objective, steps, revisions and how it went, every value escaped. */
function planLine(p: RecalledPlan): string {
  const o = p.metadata.outcome;
  const steps = stepsOf(p.metadata.plan).map((s, i) => `${i + 1}. ${stepText(s)}`);
  const failed = o.failedSteps.length ? `failed: ${o.failedSteps.join('; ')}` : 'no step failed';
  const revised = p.metadata.revisions.length ? `, revised ${p.metadata.revisions.length} time(s)` : '';
  const how = `${o.status}, ${o.steps} step(s) run, ${failed}${revised}${o.review ? `, reviewed (${o.review})` : ''}`;
  return `[past plan from session ${quoteValue(p.sessionId ?? 'unknown')}] objective: ${quoteValue(p.objective)} | plan: ${quoteValue(steps.join(' '))} | outcome: ${quoteValue(how)}`;
}

/** The planner's message of past plans (within `maxTokens`), or of memory being unavailable; none when there is nothing to say. */
export function pastPlansMessage(recall: PlanRecall | undefined, maxTokens: number): Message | undefined {
  if (!recall) return undefined;
  if (recall.unavailable) return userMessage('Memory of past plans is unavailable for this run; plan without it.');
  const lines: string[] = [];
  let used = 0;
  for (const p of recall.recalled) {
    const line = planLine(p);
    const cost = Math.ceil(line.length / CHARS_PER_TOKEN);
    if (used + cost > maxTokens) continue;
    used += cost;
    lines.push(line);
  }
  if (!lines.length) return undefined;
  return userMessage(quotedBlock(lines, quotePreamble('Plans made before for similar objectives, and how they went')));
}

/** A `MemoryError` of kind `invalid` or `too_large` (read by name: @replan/memory is imported for types only). */
export function isCallerMistake(error: unknown): boolean {
  const kind = (error as { kind?: unknown } | undefined)?.kind;
  return error instanceof Error && error.name === 'MemoryError' && (kind === 'invalid' || kind === 'too_large');
}
