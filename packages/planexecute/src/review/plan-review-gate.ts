import type { Agent, AgentEvent, BudgetView, Interrupt } from '@replan/core';
import { planForecast } from '../budget/plan-forecast.js';
import { InvocationContext, RunInterruptedSignal } from '@replan/core/agent-kit';
import type { z } from 'zod';
import { parseWith, type Parsed } from '../base/decision-call.js';
import { tagged, tagOf } from '../base/event-tags.js';
import type { FinishedSteps } from '../graph/graph-validation.js';
import type { PlanDecider } from '../base/plan-decider.js';
import { stepsOf } from '../base/plan-schema.js';
import { executedGraphSteps, type PlanExecuteKeys } from '../base/session-keys.js';
import { isEmptyDiff, type PlanDiff } from './plan-diff.js';
import { REVIEW_ID_META } from '../grants/plan-grants.js';
import { stepToolsOf } from '../grants/step-tools.js';
import { planHistory, REJECTED, REVIEWED } from './plan-history.js';
import { invalidPlanReviewAnswer, PlanStalledError } from './plan-review-errors.js';
import {
  PLAN_REVIEW,
  planReviewAnswerProblem,
  type PlanReviewAnswer,
  type PlanReviewOptions,
  type PlanReviewPayload,
} from './plan-review-answer.js';
import { planReviewKeys, type PlanReviewKeys } from './review-keys.js';
import type { PlanFeedback } from './review-feedback.js';

export interface PlanReviewGateOptions {
  /** The planner or replanner it holds plans of. */
  readonly inner: PlanDecider;
  readonly keys: PlanExecuteKeys;
  /** The review options, defaults filled in; absent when nothing is reviewed (stalls end the run). */
  readonly review: Required<PlanReviewOptions> | undefined;
  /** Replanner: revisions in a row that repeat the plan with no newly finished step before it stalls. */
  readonly maxStalls: number;
}

interface Decision {
  readonly event: AgentEvent;
  readonly index: number;
}

/**
 * Runs a planner or replanner, then holds its plan for review when the options ask: stores an
 * interrupt of reason `plan_review` (id `<decision event id>:plan_review`) and stops the run, so
 * no step runs before the plan is approved. On resume it applies the answer: approve (the plan
 * becomes `ApprovedPlan`), edit (the edited plan becomes `Plan` and `ApprovedPlan`) or reject (the
 * feedback goes into `PlanFeedback` and the planner plans again, in a fresh scope, and its new plan
 * is reviewed). Replanner: also counts stalls (see `planHistory`). It has the inner agent's name and
 * runs it on its own path, so the events are the inner agent's as without review; everything it
 * decides is read back from stored events, so a resumed run decides the same.
 */
export class PlanReviewGate implements Agent {
  readonly name: string;
  readonly description: string;
  readonly operation = 'plan' as const;
  private readonly reviewKeys: PlanReviewKeys;

  constructor(private readonly options: PlanReviewGateOptions) {
    this.name = options.inner.name;
    this.description = options.inner.description;
    this.reviewKeys = planReviewKeys(options.keys);
  }

  /** The plan schema of the agent it reviews. */
  get planSchema(): z.ZodType {
    return this.options.inner.planSchema;
  }

  async *run(ctx: InvocationContext): AsyncGenerator<AgentEvent, void, undefined> {
    let attemptStart = this.attemptStart(ctx);
    for (;;) {
      const { inner } = this.options;
      yield* inner.run(new InvocationContext(ctx.services, inner, ctx.path, ctx.branch, attemptStart, ctx.label));
      const decision = this.decisionIn(ctx, attemptStart);
      if (decision && tagOf(decision.event) === 'answer' && ctx.state[this.reviewKeys.PlanFeedback] != null) {
        // Answered after a rejection: the feedback was for that plan, not for the next run's planner.
        yield ctx.event({ actions: { stateDelta: { [this.reviewKeys.PlanFeedback]: null } } });
        return;
      }
      if (!decision || tagOf(decision.event) === 'answer' || this.answered(ctx, decision.index)) return;
      const payload = withForecast(this.reviewOf(ctx, decision), ctx.services.budget.view());
      if (!payload) return;
      const answer = yield* this.answerTo(ctx, decision.event, payload);
      if ('reject' in answer) {
        const feedback: PlanFeedback = { plan: payload.plan, feedback: answer.reject, invocationId: ctx.invocationId };
        yield tagged(ctx.event({ actions: { stateDelta: { [this.reviewKeys.PlanFeedback]: feedback } } }), REJECTED);
        attemptStart = ctx.events.length;
        continue;
      }
      const plan = 'edit' in answer ? this.validEdit(ctx.state, answer.edit, reviewId(decision.event)) : payload.plan;
      const delta: Record<string, unknown> = { [this.reviewKeys.ApprovedPlan]: plan };
      if ('edit' in answer) delta[this.options.keys.Plan] = plan;
      if (ctx.state[this.reviewKeys.PlanFeedback] != null) delta[this.reviewKeys.PlanFeedback] = null;
      // The review's id names the approval that grants the plan's tools (`review.grants`).
      const meta = { review: 'edit' in answer ? 'edit' : 'approve', [REVIEW_ID_META]: reviewId(decision.event) };
      yield tagged(ctx.event({ actions: { stateDelta: delta } }), REVIEWED, meta);
      return;
    }
  }

  /**
   * Checks an answer to this gate's review when `resume` is given it: a `PlanReviewAnswer`, and an
   * edit that fits the plan schema (and is a valid graph over the finished steps, in graph mode).
   */
  checkResumeValue(interrupt: Interrupt, value: unknown, state: Readonly<Record<string, unknown>>): void {
    if (interrupt.reason !== PLAN_REVIEW) return;
    const problem = planReviewAnswerProblem(value);
    if (problem) throw invalidPlanReviewAnswer(interrupt.id, problem);
    if ('edit' in (value as object)) this.validEdit(state, (value as { edit: unknown }).edit, interrupt.id);
  }

  /** The edited plan as the schema outputs it; else a `ResumeError` (`invalid_value`). */
  private validEdit(state: Readonly<Record<string, unknown>>, edit: unknown, interruptId: string): unknown {
    const parsed = this.parseEdit(state, edit);
    if (!parsed.ok) throw invalidPlanReviewAnswer(interruptId, `the edited plan is not valid: ${parsed.problem}`);
    return parsed.value;
  }

  private parseEdit(state: Readonly<Record<string, unknown>>, edit: unknown): Parsed<unknown> {
    const parsed = parseWith(this.options.inner.planSchema, edit, 'its fields');
    if (!parsed.ok) return parsed;
    const blank = blankStep(parsed.value);
    if (blank !== undefined)
      return { ok: false, problem: `step ${blank + 1} has no text (a step says what to do; an empty list of steps means "answer now")` };
    const { inner, keys } = this.options;
    const problem = inner.mode.validate(parsed.value, inner.role === 'replanner' ? finishedIn(state, keys) : undefined);
    return problem === undefined ? parsed : { ok: false, problem };
  }

  /** Where the current attempt began: after the last rejection this gate stored in its run, else its start. */
  private attemptStart(ctx: InvocationContext): number {
    let start = ctx.scopeStart;
    for (let i = ctx.scopeStart; i < ctx.events.length; i++) if (this.isOwn(ctx, ctx.events[i], REJECTED)) start = i + 1;
    return start;
  }

  private isOwn(ctx: InvocationContext, event: AgentEvent | undefined, tag: string): boolean {
    return event !== undefined && event.path === ctx.path && event.branch === ctx.branch && (tagOf(event) as string | undefined) === tag;
  }

  /** The inner agent's decision (plan, revised plan or answer) in the attempt, if it stored one. */
  private decisionIn(ctx: InvocationContext, from: number): Decision | undefined {
    for (let i = ctx.events.length - 1; i >= from; i--) {
      const event = ctx.events[i] as AgentEvent;
      if (event.path !== ctx.path || event.branch !== ctx.branch) continue;
      const tag = tagOf(event);
      if (tag === 'plan' || tag === 'revised-plan' || tag === 'answer') return { event, index: i };
    }
    return undefined;
  }

  private answered(ctx: InvocationContext, after: number): boolean {
    for (let i = after + 1; i < ctx.events.length; i++) if (this.isOwn(ctx, ctx.events[i], REVIEWED)) return true;
    return false;
  }

  /** The review this decision needs (undefined: it goes on). A stall with no review configured ends the run. */
  private reviewOf(ctx: InvocationContext, decision: Decision): PlanReviewPayload | undefined {
    const { review, keys, inner, maxStalls } = this.options;
    const { role } = inner;
    const plan = decision.event.actions?.stateDelta?.[keys.Plan];
    if (role === 'planner') return review?.plan ? { kind: PLAN_REVIEW, role, agent: this.name, plan } : undefined;
    const rootPath = ctx.path.split('/').slice(0, -2).join('/');
    const history = planHistory(ctx, decision.index, rootPath, keys, this.reviewKeys, inner.mode.retryKey);
    let reason: string | undefined;
    if (history.stalls >= maxStalls) {
      if (!review) throw new PlanStalledError(this.name, plan, history.stalls);
      reason = `stalled: the same plan ${history.stalls} times in a row without a newly finished step`;
    }
    const diff = inner.mode.diff(stepsOf(history.approved), stepsOf(plan), history);
    // With grants, a revision that adds or rewrites a step naming tools asks again: its grant is new.
    if (!reason && review?.grants && review.replans === 'never' && namesTools(diff))
      reason = 'it adds or changes steps that name tools to approve (review.grants)';
    if (!reason && (!review || review.replans === 'never' || (review.replans === 'changed' && isEmptyDiff(diff)))) return undefined;
    return { kind: PLAN_REVIEW, role, agent: this.name, plan, diff, ...(reason ? { reason } : {}) };
  }

  /** The stored answer to this decision's review; else the review is stored (once) and the run stops. */
  private async *answerTo(
    ctx: InvocationContext,
    decision: AgentEvent,
    payload: PlanReviewPayload,
  ): AsyncGenerator<AgentEvent, PlanReviewAnswer, undefined> {
    const id = reviewId(decision);
    if (ctx.services.resumeValues.has(id)) {
      const answer = ctx.services.resumeValues.get(id);
      const problem = planReviewAnswerProblem(answer);
      if (problem) throw invalidPlanReviewAnswer(id, problem);
      return answer as PlanReviewAnswer;
    }
    const interrupt: Interrupt = { id, reason: PLAN_REVIEW, payload, path: ctx.path };
    if (!ctx.services.interruptIds.has(id)) yield tagged(ctx.event({ actions: { interrupt } }), 'plan-review');
    throw new RunInterruptedSignal([interrupt]);
  }
}

/** A review's interrupt id: the id of the event that wrote the plan, so it is the same after a resume. */
const reviewId = (decision: AgentEvent): string => `${decision.id}:${PLAN_REVIEW}`;

/** The graph steps already run, which an edited revision must not reuse. */
function finishedIn(state: Readonly<Record<string, unknown>>, keys: PlanExecuteKeys): FinishedSteps {
  const steps = executedGraphSteps(state, keys);
  return {
    succeeded: new Set(steps.filter((s) => s.error === undefined).map((s) => s.id)),
    failed: new Set(steps.filter((s) => s.error !== undefined).map((s) => s.id)),
  };
}

/** The index of the first step with no text (a blank string, or a graph step whose task is blank), if any. */
function blankStep(plan: unknown): number | undefined {
  const index = stepsOf(plan).findIndex((step) => {
    const text = typeof step === 'string' ? step : (step as { task?: unknown } | null)?.task;
    return typeof text === 'string' && text.trim() === '';
  });
  return index < 0 ? undefined : index;
}

/** True when a revision adds or rewrites a step that names tools (one a plan grant would cover). */
const namesTools = (diff: PlanDiff): boolean =>
  [...diff.added, ...diff.changed.map((c) => c.after)].some((step) => stepToolsOf(step).tools.length > 0);

/** The review's payload with the plan's forecast against the budget, when the run has limits. */
function withForecast(payload: PlanReviewPayload | undefined, budget: BudgetView | undefined): PlanReviewPayload | undefined {
  const forecast = payload && planForecast(payload.plan, budget);
  return forecast ? { ...payload, forecast } : payload;
}
