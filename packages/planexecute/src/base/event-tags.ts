import type { AgentEvent } from '@replan/core';

/** The `meta` key the plan-execute agents tag their events with. */
export const PLAN_EXECUTE_META = 'planExecute';

/** The tags stored in `event.meta.planExecute`. */
export type PlanExecuteTag =
  | 'planning'
  | 'repair'
  | 'plan-step'
  | 'plan'
  | 'revised-plan'
  | 'step'
  | 'step-result'
  | 'answer'
  // Plan review: the review asked (its interrupt), the plan approved or edited, the plan rejected.
  | 'plan-review'
  | 'plan-reviewed'
  | 'plan-rejected';

type Meta = Readonly<Record<string, unknown>>;

/** Adds plan-execute tags to an event's meta, keeping what is there (core reads its own `kind`). */
export function tagged(event: AgentEvent, tag: PlanExecuteTag, extra: Meta = {}): AgentEvent {
  return { ...event, meta: { ...event.meta, ...extra, [PLAN_EXECUTE_META]: tag } };
}

/** The plan-execute tag of an event, if it has one. */
export function tagOf(event: AgentEvent): PlanExecuteTag | undefined {
  return event.meta?.[PLAN_EXECUTE_META] as PlanExecuteTag | undefined;
}
