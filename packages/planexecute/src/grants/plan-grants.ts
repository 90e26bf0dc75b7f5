import type { AgentEvent } from '@replan/core';
import { stepsOf } from '../base/plan-schema.js';
import { grantKey, stepToolsOf } from './step-tools.js';

/** The meta field of a review's answer event that names the review (its interrupt id). */
export const REVIEW_ID_META = 'reviewId';

/**
 * Which review granted each step of the plan in force, by `grantKey`: read from the invocation's
 * stored review answers (events that set `approvedPlanKey`), so a resumed run — in any process —
 * finds the same grants. Each approval grants the steps of the plan it approved (the edited plan,
 * when edited) that name tools; a step approved before and approved again unchanged keeps its
 * first grant; a step the newest approval does not hold has none.
 */
export function grantsIn(events: readonly AgentEvent[], invocationId: string, approvedPlanKey: string): ReadonlyMap<string, string> {
  let grants = new Map<string, string>();
  for (const event of events) {
    if (event.invocationId !== invocationId) continue;
    const delta = event.actions?.stateDelta;
    if (!delta || !(approvedPlanKey in delta)) continue;
    const reviewId = event.meta?.[REVIEW_ID_META];
    if (typeof reviewId !== 'string') continue;
    const next = new Map<string, string>();
    for (const step of stepsOf(delta[approvedPlanKey])) {
      if (!stepToolsOf(step).tools.length) continue;
      const key = grantKey(step);
      next.set(key, grants.get(key) ?? reviewId);
    }
    grants = next;
  }
  return grants;
}

/** JSON values equal as stored (object keys in any order). */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const other = b as unknown[];
    return a.length === other.length && a.every((v, i) => sameJson(v, other[i]));
  }
  const ka = Object.keys(a).filter((k) => (a as Record<string, unknown>)[k] !== undefined);
  const kb = Object.keys(b).filter((k) => (b as Record<string, unknown>)[k] !== undefined);
  return ka.length === kb.length && ka.every((k) => sameJson((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

/** True when the call's arguments have every field the plan states, each equal as JSON; fields it does not state are free. */
export function statedArgsMatch(stated: Readonly<Record<string, unknown>> | undefined, args: unknown): boolean {
  if (stated === undefined) return true;
  const actual = args !== null && typeof args === 'object' ? (args as Record<string, unknown>) : {};
  return Object.entries(stated).every(([field, value]) => field in actual && sameJson(actual[field], value));
}
