import type { AgentEvent, EventError, FinalAnswer } from '@replan/core';
import type { ExecutedGraphStep, ExecutedStep, PlanExecuteKeys } from './base/session-keys.js';
import type { GraphStep } from './graph/graph-plan.js';
import type { PlanDiff } from './review/plan-diff.js';
import type { PlanForecast } from './budget/plan-forecast.js';
import type { PlanReviewPayload } from './review/plan-review-answer.js';
import { planReviewKeys } from './review/review-keys.js';
import { tagOf } from './base/event-tags.js';

/** The type of one step of a plan type (`unknown` when it has no `steps` array). */
export type StepOf<Plan> = Plan extends { readonly steps: readonly (infer Step)[] } ? Step : unknown;

/** What `ExecutedSteps` holds for a plan type: graph steps for a graph plan, else `ExecutedStep` of its step type. */
export type ExecutedStepOf<Plan> = Plan extends unknown
  ? StepOf<Plan> extends GraphStep
    ? ExecutedGraphStep
    : ExecutedStep<StepOf<Plan>>
  : never;

/**
 * What a plan-execute event is, for a UI or log. Works on partial (streamed) events too, so a
 * consumer can render a plan, a step's progress, a revision and the answer as they arrive.
 * `Plan` is the agent's plan type when classified with `planExecuteEventKind(event, agent)`.
 */
export type PlanExecuteEventKind<Plan = unknown> =
  /** A planner or replanner model call in progress (streamed deltas). */
  | { readonly kind: 'planning'; readonly agent: string; readonly partial: boolean }
  /** A faulty planner/replanner answer, or the repair message sent back to the model. */
  | { readonly kind: 'repair'; readonly agent: string; readonly attempt: number; readonly problem: string }
  /** Streaming planner: a step complete in the streaming plan, accepted and about to start (stored before it starts). */
  | { readonly kind: 'plan-step'; readonly step: GraphStep }
  /** The planner's plan. Streaming planner: `problem` when the complete plan was invalid after steps started (then `plan` holds only those steps). */
  | { readonly kind: 'plan'; readonly plan: Plan; readonly problem?: string }
  /** A new plan from the replanner (it replaces the previous one). */
  | { readonly kind: 'revised-plan'; readonly plan: Plan; readonly appendedSteps: readonly AppendedStep<Plan>[] }
  /** Progress of a step: the executor's model output, tool calls and tool results. Graph mode: `stepId`, `stepNumber` 0. */
  | {
      readonly kind: 'step-progress';
      readonly step: StepOf<Plan>;
      readonly stepNumber: number;
      readonly partial: boolean;
      readonly stepId?: string;
    }
  /** A step finished, with its result (graph mode: `{ id, step, result }`, or `{ id, step, error }` when it failed). */
  | { readonly kind: 'step-result'; readonly executedStep: ResultStep<Plan>; readonly stepNumber: number; readonly stepId?: string }
  /** The final answer (the run's output). */
  | { readonly kind: 'answer'; readonly answer: FinalAnswer; readonly appendedSteps: readonly AppendedStep<Plan>[] }
  /**
   * A plan held for review (the `plan_review` interrupt): answer it by `interruptId` with
   * `{ approve: true }`, `{ edit: plan }` or `{ reject: feedback }`. A revision has its `diff`
   * against the approved steps still to run; `reason` says why a stalled plan is reviewed.
   */
  | {
      readonly kind: 'plan-review';
      readonly interruptId: string;
      readonly role: 'planner' | 'replanner';
      readonly agent: string;
      readonly plan: Plan;
      readonly diff?: PlanDiff;
      readonly reason?: string;
      /** The plan's forecast against the run's budget, when the run has limits. */
      readonly forecast?: PlanForecast;
    }
  /** A reviewed plan approved as written (`answer: 'approve'`) or replaced by an edit (`answer: 'edit'`); `plan` is the one that runs. */
  | { readonly kind: 'plan-reviewed'; readonly answer: 'approve' | 'edit'; readonly plan: Plan }
  /** A reviewed plan rejected with `feedback`: the planner (or replanner) plans again with it. */
  | { readonly kind: 'plan-rejected'; readonly plan: Plan; readonly feedback: string }
  /**
   * A compensation (`tool({ compensate })`) undoing call `compensates` of `tool`: its call (`phase:
   * 'call'`) or its result (`phase: 'result'`, the event's `tool_result`), after a replan dropped the
   * step or the run was cancelled with `compensate`.
   */
  | { readonly kind: 'compensation'; readonly compensates: string; readonly tool: string; readonly phase: 'call' | 'result' }
  /** The run stopped with an error (e.g. `MaxIterationsError`, `PlanningError`). */
  | { readonly kind: 'error'; readonly error: EventError };

/** Steps a replanner decision appended (linear mode); untyped plans keep the former `ExecutedStep`. */
type AppendedStep<Plan> = unknown extends Plan ? ExecutedStep : ExecutedStepOf<Plan>;
/** A step's result; untyped plans may be either kind. */
type ResultStep<Plan> = unknown extends Plan ? ExecutedStep | ExecutedGraphStep : ExecutedStepOf<Plan>;

type Meta = Readonly<Record<string, unknown>>;

const num = (v: unknown) => (typeof v === 'number' ? v : 0);
const stepIdOf = (meta: Meta) => (typeof meta.stepId === 'string' ? { stepId: meta.stepId } : {});

/** What `planExecuteEventKind` needs of a plan–execute agent: its name and keys (the plan type rides along). */
export interface PlanExecuteAgentRef<Plan> {
  readonly name: string;
  readonly keys: PlanExecuteKeys;
  /** Its planner and loop: an event is the agent's when its path runs through `<name>/<one of them>`. */
  readonly subAgents?: readonly { readonly name: string }[];
  readonly planType?: Plan;
}

/** The value an event wrote under one of a plan–execute agent's keys: `Plan`, or `<name>:Plan` of any agent when no keys are given. */
function keyed(
  record: Readonly<Record<string, unknown>> | undefined,
  base: keyof PlanExecuteKeys | 'ApprovedPlan' | 'PlanFeedback',
  keys: PlanExecuteKeys | undefined,
): unknown {
  if (!record) return undefined;
  if (keys) return record[base === 'ApprovedPlan' || base === 'PlanFeedback' ? planReviewKeys(keys)[base] : keys[base]];
  if (base in record) return record[base];
  const suffix = `:${base}`;
  for (const key of Object.keys(record)) if (key.endsWith(suffix)) return record[key];
  return undefined;
}

/** True when an event comes from the agent or inside it (names are unique in a tree). */
function isUnder(event: AgentEvent, agent: PlanExecuteAgentRef<unknown>): boolean {
  const segments = event.path.split('/');
  const children = agent.subAgents?.map((a) => a.name);
  for (let i = 0; i < segments.length; i++) {
    if (segments[i] !== agent.name) continue;
    const next = segments[i + 1];
    // The agent itself, or one of its parts (a graph step id equal to the name is not enough).
    if (next === undefined ? event.author === agent.name : !children || children.includes(next)) return true;
  }
  return false;
}

/**
 * Classifies an event of a plan-execute run; `undefined` for events that are none of these
 * (cursors, user input). Given the agent, only that agent's events are classified (another
 * plan–execute agent's in the same tree give `undefined`) and the plan is typed with its plan type.
 */
export function planExecuteEventKind(event: AgentEvent): PlanExecuteEventKind | undefined;
export function planExecuteEventKind<Plan>(event: AgentEvent, agent: PlanExecuteAgentRef<Plan>): PlanExecuteEventKind<Plan> | undefined;
export function planExecuteEventKind(event: AgentEvent, agent?: PlanExecuteAgentRef<unknown>): PlanExecuteEventKind | undefined {
  if (agent && !isUnder(event, agent)) return undefined;
  if (event.error) return { kind: 'error', error: event.error };
  const keys = agent?.keys;
  const meta = event.meta ?? {};
  const delta = event.actions?.stateDelta;
  // The steps this event appended to `ExecutedSteps` (the step the replanner just judged).
  const appendedSteps = (keyed(event.actions?.stateAppend, 'ExecutedSteps', keys) ?? []) as ExecutedStep[];
  if (meta.kind === 'compensation' && event.message) {
    const block = event.message.content[0];
    const tool = block?.type === 'tool_call' || block?.type === 'tool_result' ? block.name : '';
    return { kind: 'compensation', compensates: String(meta.compensates), tool, phase: event.message.role === 'tool' ? 'result' : 'call' };
  }
  switch (tagOf(event)) {
    case 'planning':
      return { kind: 'planning', agent: event.author, partial: event.partial === true };
    case 'repair':
      return { kind: 'repair', agent: event.author, attempt: num(meta.attempt), problem: String(meta.problem ?? '') };
    case 'plan-step':
      return { kind: 'plan-step', step: meta.planStep as GraphStep };
    case 'plan':
      return {
        kind: 'plan',
        plan: keyed(delta, 'Plan', keys),
        ...(typeof meta.planProblem === 'string' ? { problem: meta.planProblem } : {}),
      };
    case 'revised-plan':
      return { kind: 'revised-plan', plan: keyed(delta, 'Plan', keys), appendedSteps };
    case 'step':
      return {
        kind: 'step-progress',
        step: meta.step,
        stepNumber: num(meta.stepNumber),
        partial: event.partial === true,
        ...stepIdOf(meta),
      };
    case 'step-result':
      return {
        kind: 'step-result',
        executedStep: keyed(delta, 'ExecutedStep', keys) as ExecutedStep,
        stepNumber: num(meta.stepNumber),
        ...stepIdOf(meta),
      };
    case 'answer':
      if (!event.actions?.final) return undefined;
      return { kind: 'answer', answer: event.actions.final, appendedSteps };
    case 'plan-review': {
      const interrupt = event.actions?.interrupt;
      if (!interrupt) return undefined;
      const { role, agent: writer, plan, diff, reason, forecast } = interrupt.payload as PlanReviewPayload;
      return {
        kind: 'plan-review',
        interruptId: interrupt.id,
        role,
        agent: writer,
        plan,
        ...(diff ? { diff } : {}),
        ...(reason ? { reason } : {}),
        ...(forecast ? { forecast } : {}),
      };
    }
    case 'plan-reviewed':
      return { kind: 'plan-reviewed', answer: meta.review === 'edit' ? 'edit' : 'approve', plan: keyed(delta, 'ApprovedPlan', keys) };
    case 'plan-rejected': {
      const rejected = keyed(delta, 'PlanFeedback', keys) as { plan?: unknown; feedback?: unknown } | undefined;
      return { kind: 'plan-rejected', plan: rejected?.plan, feedback: String(rejected?.feedback ?? '') };
    }
    default:
      return undefined;
  }
}
