// Types only from @replan/memory (an optional peer): plan–execute users without memory need nothing more.
import type { MemoryStore } from '@replan/memory';
import { ConfigurationError, type ChatModel } from '@replan/core';

/**
 * `createPlanExecuteAgent({ memory })` (docs/memory.md). When a run ends, its objective, the plan it
 * ran (as approved or edited), its revisions and its outcome are stored as a `plan` memory, once even
 * across a crash. The planner is shown the most similar past plans and how they went, quoted as
 * data. With `reusePlans`, a close past plan stands in for the planner's call; the plan event's
 * `meta.reusedPlan` names it. With `streamingPlan`, plans are kept but not recalled.
 */
export interface PlanExecuteMemoryOptions {
  /** Where plan memories are kept and searched (`@replan/memory`'s stores). */
  readonly store: MemoryStore;
  /** `'user'` (default): the run's user's plans; `'app'`: plans shared by every user of the app. */
  readonly scope?: 'user' | 'app';
  /** How many similar past plans the planner is shown (default 3; 0 shows none). */
  readonly k?: number;
  /** Most tokens (≈ 4 characters each) the quoted past plans take in the planner's prompt (default 1500). */
  readonly maxTokens?: number;
  /**
   * Start from a stored plan instead of calling the planner when a past objective is close enough:
   * its similarity is at least `minScore` (0–1: the store's score for this objective over its score
   * for the past objective's own text — 1 is the same words; with an embedder, the cosine) and its
   * run completed. With
   * `adaptModel` one cheap call adapts its steps to the new objective; without, it runs as written.
   * Either way it still goes through review and `checkPlan` (a refused plan falls back to the planner).
   */
  readonly reusePlans?: { readonly minScore: number; readonly adaptModel?: ChatModel };
}

/** The memory options, checked, with defaults. */
export interface ResolvedPlanMemory {
  readonly store: MemoryStore;
  readonly scope: 'user' | 'app';
  readonly k: number;
  readonly maxTokens: number;
  readonly reusePlans: { readonly minScore: number; readonly adaptModel?: ChatModel } | undefined;
}

const fail = (what: string): never => {
  throw new ConfigurationError(`createPlanExecuteAgent: memory.${what}`);
};

/**
 * Checks `memory` when the agent is built: every mistake is a `ConfigurationError` naming the
 * field. `customPlanner` names the planner when it is not from `createPlanner` (memory needs ours).
 */
export function resolvePlanMemory(memory: PlanExecuteMemoryOptions | undefined, customPlanner?: string): ResolvedPlanMemory | undefined {
  if (memory === undefined) return undefined;
  if (customPlanner !== undefined)
    fail(
      `store needs a planner from createPlanner, but "${customPlanner}" is a custom agent: the past plans go into its prompt and a reused plan stands in for its call. Use createPlanner, or drop memory.`,
    );
  if (!memory || typeof memory !== 'object' || typeof memory.store?.search !== 'function' || typeof memory.store.put !== 'function')
    fail('store must be a MemoryStore from @replan/memory (e.g. new InMemoryMemoryStore()): pass memory: { store }.');
  const scope = memory.scope ?? 'user';
  if (scope !== 'user' && scope !== 'app') fail(`scope must be 'user' or 'app', got ${JSON.stringify(scope)}.`);
  const k = memory.k ?? 3;
  if (!Number.isInteger(k) || k < 0) fail(`k must be a whole number (0 shows no past plans), got ${String(k)}.`);
  const maxTokens = memory.maxTokens ?? 1500;
  if (!Number.isInteger(maxTokens) || maxTokens < 1) fail(`maxTokens must be a positive integer, got ${String(maxTokens)}.`);
  const reuse = memory.reusePlans;
  if (reuse !== undefined) {
    if (!reuse || typeof reuse.minScore !== 'number' || !(reuse.minScore >= 0 && reuse.minScore <= 1))
      fail(
        `reusePlans.minScore must be a number from 0 to 1 (how similar a past objective must be to be reused; 0.9 is close), got ${JSON.stringify(reuse?.minScore)}.`,
      );
    if (reuse.adaptModel !== undefined && typeof reuse.adaptModel?.stream !== 'function')
      fail('reusePlans.adaptModel must be a ChatModel (the cheap model that adapts a stored plan), or left out to reuse plans as written.');
  }
  return { store: memory.store, scope, k, maxTokens, reusePlans: reuse };
}
