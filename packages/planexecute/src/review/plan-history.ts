import type { AgentEvent, InvocationContext } from '@replan/core';
import { tagOf } from '../base/event-tags.js';
import { stepsOf } from '../base/plan-schema.js';
import type { PlanExecuteKeys } from '../base/session-keys.js';
import type { PlanReviewKeys } from './review-keys.js';

/** A step appended to `ExecutedSteps` that finished with a result. */
export interface SucceededStep {
  readonly id?: string;
  readonly step: unknown;
}

/** What this run of a plan–execute agent did with its plans, up to one replanner decision. */
export interface PlanHistory {
  /** The last approved plan (else the planner's plan, accepted without review). */
  readonly approved: unknown;
  /** Steps that succeeded since it was approved. */
  readonly succeededSince: readonly SucceededStep[];
  /** Ids of the graph steps that failed since it was approved (a revision may retry them under new ids). */
  readonly failedSince: readonly string[];
  /** Revisions in a row, up to this one, that repeat the plan before them with no step newly succeeded. */
  readonly stalls: number;
}

/** The tags of a review's answer: the plan approved (or edited), or rejected. */
export const REVIEWED = 'plan-reviewed' as const;
export const REJECTED = 'plan-rejected' as const;

/**
 * Reads the history from the invocation's events under the plan–execute agent at `rootPath`, up
 * to and including the replanner's decision at `decisionIndex` — only stored events, so a resumed
 * run reads the same.
 */
export function planHistory(
  ctx: InvocationContext,
  decisionIndex: number,
  rootPath: string,
  keys: PlanExecuteKeys,
  reviewKeys: PlanReviewKeys,
  retryKey: (step: unknown) => string,
): PlanHistory {
  const under = `${rootPath}/`;
  let approved: unknown;
  let approvedExplicitly = false;
  let succeededSince: SucceededStep[] = [];
  let failedSince: string[] = [];
  let succeeded = 0;
  let lastSignature: string | undefined;
  let succeededAtLast = 0;
  let stalls = 0;
  for (let i = 0; i <= decisionIndex; i++) {
    const event = ctx.events[i] as AgentEvent;
    if (event.invocationId !== ctx.invocationId || !event.path.startsWith(under)) continue;
    for (const step of succeededIn(event, keys)) {
      succeeded++;
      succeededSince.push(step);
    }
    failedSince.push(...failedIn(event, keys));
    const delta = event.actions?.stateDelta ?? {};
    const tag = tagOf(event);
    if (tag === 'plan' && keys.Plan in delta && !approvedExplicitly) {
      approved = delta[keys.Plan];
      succeededSince = [];
      failedSince = [];
    }
    if (reviewKeys.ApprovedPlan in delta) {
      approved = delta[reviewKeys.ApprovedPlan];
      approvedExplicitly = true;
      succeededSince = [];
      failedSince = [];
    }
    if (tag === REVIEWED || tag === REJECTED) stalls = 0; // a person looked at it: count again from here
    if (!(keys.Plan in delta)) continue;
    const signature = signatureOf(delta[keys.Plan], retryKey);
    if (tag === 'revised-plan') {
      stalls = signature === lastSignature && succeeded === succeededAtLast ? stalls + 1 : 0;
    } else stalls = 0;
    lastSignature = signature;
    succeededAtLast = succeeded;
  }
  return { approved, succeededSince, failedSince, stalls };
}

/** Steps this event appended to `ExecutedSteps` that finished without an error. */
function succeededIn(event: AgentEvent, keys: PlanExecuteKeys): SucceededStep[] {
  return appendedSteps(event, keys).filter((s) => s.error === undefined) as SucceededStep[];
}

/** Ids of the graph steps this event appended to `ExecutedSteps` that ended in an error. */
function failedIn(event: AgentEvent, keys: PlanExecuteKeys): string[] {
  return appendedSteps(event, keys).flatMap((s) => (s.error !== undefined && typeof s.id === 'string' ? [s.id] : []));
}

function appendedSteps(event: AgentEvent, keys: PlanExecuteKeys): { readonly id?: unknown; readonly error?: unknown }[] {
  const appended = event.actions?.stateAppend?.[keys.ExecutedSteps];
  return Array.isArray(appended) ? appended.filter((s) => s && typeof s === 'object') : [];
}

/** A plan as a stall compares it: its steps by their retry key (graph steps by task: a retry under a new id is the same plan). */
function signatureOf(plan: unknown, retryKey: (step: unknown) => string): string {
  return JSON.stringify(stepsOf(plan).map(retryKey));
}
