import type { AgentEvent, EventError, FinalAnswer } from '@replan/core';
import { SessionKeys, type ExecutedGraphStep, type ExecutedStep } from './session-keys.js';
import type { GraphStep } from './graph/graph-plan.js';

/** The `meta` key the plan-execute agents tag their events with. */
export const PLAN_EXECUTE_META = 'planExecute';

/** The tags stored in `event.meta.planExecute`. */
export type PlanExecuteTag = 'planning' | 'repair' | 'plan-step' | 'plan' | 'revised-plan' | 'step' | 'step-result' | 'answer';

/**
 * What a plan-execute event is, for a UI or log. Works on partial (streamed) events too, so a
 * consumer can render a plan, a step's progress, a revision and the answer as they arrive.
 */
export type PlanExecuteEventKind =
  /** A planner or replanner model call in progress (streamed deltas). */
  | { readonly kind: 'planning'; readonly agent: string; readonly partial: boolean }
  /** A faulty planner/replanner answer, or the repair message sent back to the model. */
  | { readonly kind: 'repair'; readonly agent: string; readonly attempt: number; readonly problem: string }
  /** Streaming planner: a step complete in the streaming plan, accepted and about to start (stored before it starts). */
  | { readonly kind: 'plan-step'; readonly step: GraphStep }
  /** The planner's plan. Streaming planner: `problem` when the complete plan was invalid after steps started (then `plan` holds only those steps). */
  | { readonly kind: 'plan'; readonly plan: unknown; readonly problem?: string }
  /** A new plan from the replanner (it replaces the previous one). */
  | { readonly kind: 'revised-plan'; readonly plan: unknown; readonly appendedSteps: readonly ExecutedStep[] }
  /** Progress of a step: the executor's model output, tool calls and tool results. Graph mode: `stepId`, `stepNumber` 0. */
  | { readonly kind: 'step-progress'; readonly step: unknown; readonly stepNumber: number; readonly partial: boolean; readonly stepId?: string }
  /** A step finished, with its result (graph mode: `{ id, step, result }`, or `{ id, step, error }` when it failed). */
  | { readonly kind: 'step-result'; readonly executedStep: ExecutedStep | ExecutedGraphStep; readonly stepNumber: number; readonly stepId?: string }
  /** The final answer (the run's output). */
  | { readonly kind: 'answer'; readonly answer: FinalAnswer; readonly appendedSteps: readonly ExecutedStep[] }
  /** The run stopped with an error (e.g. `MaxIterationsError`, `PlanningError`). */
  | { readonly kind: 'error'; readonly error: EventError };

type Meta = Readonly<Record<string, unknown>>;

/** Adds plan-execute tags to an event's meta, keeping what is there (core reads its own `kind`). */
export function tagged(event: AgentEvent, tag: PlanExecuteTag, extra: Meta = {}): AgentEvent {
  return { ...event, meta: { ...event.meta, ...extra, [PLAN_EXECUTE_META]: tag } };
}

/** The plan-execute tag of an event, if it has one. */
export function tagOf(event: AgentEvent): PlanExecuteTag | undefined {
  return event.meta?.[PLAN_EXECUTE_META] as PlanExecuteTag | undefined;
}

const num = (v: unknown) => (typeof v === 'number' ? v : 0);
const stepIdOf = (meta: Meta) => (typeof meta.stepId === 'string' ? { stepId: meta.stepId } : {});

/** Classifies an event of a plan-execute run; `undefined` for events that are none of these (cursors, user input). */
export function planExecuteEventKind(event: AgentEvent): PlanExecuteEventKind | undefined {
  if (event.error) return { kind: 'error', error: event.error };
  const meta = event.meta ?? {};
  const delta = event.actions?.stateDelta ?? {};
  // The steps this event appended to `ExecutedSteps` (the step the replanner just judged).
  const appendedSteps = (event.actions?.stateAppend?.[SessionKeys.ExecutedSteps] ?? []) as ExecutedStep[];
  switch (tagOf(event)) {
    case 'planning':
      return { kind: 'planning', agent: event.author, partial: event.partial === true };
    case 'repair':
      return { kind: 'repair', agent: event.author, attempt: num(meta.attempt), problem: String(meta.problem ?? '') };
    case 'plan-step':
      return { kind: 'plan-step', step: meta.planStep as GraphStep };
    case 'plan':
      return { kind: 'plan', plan: delta[SessionKeys.Plan], ...(typeof meta.planProblem === 'string' ? { problem: meta.planProblem } : {}) };
    case 'revised-plan':
      return { kind: 'revised-plan', plan: delta[SessionKeys.Plan], appendedSteps };
    case 'step':
      return { kind: 'step-progress', step: meta.step, stepNumber: num(meta.stepNumber), partial: event.partial === true, ...stepIdOf(meta) };
    case 'step-result':
      return { kind: 'step-result', executedStep: delta[SessionKeys.ExecutedStep] as ExecutedStep, stepNumber: num(meta.stepNumber), ...stepIdOf(meta) };
    case 'answer':
      if (!event.actions?.final) return undefined;
      return { kind: 'answer', answer: event.actions.final, appendedSteps };
    default:
      return undefined;
  }
}
