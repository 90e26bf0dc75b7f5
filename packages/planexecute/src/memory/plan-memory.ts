import { messageText, type InvocationContext } from '@replan/core';
import type { MemoryScope } from '@replan/memory';
import type { ResolvedPlanMemory } from '../base/plan-memory-options.js';

/** How a stored plan went: what the planner of a later run reads, and what reuse requires (`completed`). */
export interface PlanOutcome {
  readonly status: 'completed' | 'max_iterations';
  /** Steps executed. */
  readonly steps: number;
  /** The steps that failed, as written. */
  readonly failedSteps: readonly string[];
  /** `approve` or `edit` when a person reviewed the plan. */
  readonly review?: string;
  readonly inputTokens: number;
  readonly outputTokens: number;
}

/** The `metadata` of a `plan` memory (its `text` is the objective). */
export interface PlanMemoryMetadata {
  /** The plan the run started from (as approved or edited, when reviewed). */
  readonly plan: unknown;
  /** The replanner's revisions, in order. */
  readonly revisions: readonly unknown[];
  readonly outcome: PlanOutcome;
  /** Priced by the runner's `prices` (absent without them). */
  readonly cost?: number;
  /** The plan memory this run's plan was reused from, if any. */
  readonly reusedFrom?: string;
}

// An objective is stored and searched by its start: a long input (a pasted document) stays within
// any store's text and query limits.
const MAX_OBJECTIVE_CHARS = 4000;

/** This invocation's user input, as one text (its first 4,000 characters): the objective a plan is stored and searched by. */
export function objectiveOf(ctx: InvocationContext): string {
  return ctx.events
    .filter((e) => e.author === 'user' && e.invocationId === ctx.invocationId && e.message && !e.partial)
    .map((e) => messageText(e.message))
    .join('\n')
    .trim()
    .slice(0, MAX_OBJECTIVE_CHARS);
}

/** The scope plan memories of this run go to: its app, and its user unless `scope: 'app'`. */
export function planScope(ctx: InvocationContext, memory: ResolvedPlanMemory): MemoryScope {
  const { appName, userId } = ctx.session;
  return memory.scope === 'app' ? { appName } : { appName, userId };
}
