import {
  reasoningOf,
  textBlock,
  toolCallsOf,
  type AgentEvent,
  type ChatModel,
  type FinalAnswer,
  type InvocationContext,
  type Message,
  type Middleware,
  type ModelRequest,
  type ModelSettings,
  type ToolSpec,
} from '@replan/core';
import { assertAgentName } from '@replan/core/agent-kit';
import type { z } from 'zod';
import { tagged, tagOf } from './base/event-tags.js';
import { calledNames, decisionCall, parseCallArgs, type Parsed } from './base/decision-call.js';
import type { defaultPlanSchema } from './base/plan-schema.js';
import { defaultRespondSchema, planToolFor, respondToolFor } from './plan-tools.js';
import { assertModel } from './base/assert-model.js';
import { readExecutionState, SessionKeys, type ExecutionContext, type PlanExecuteKeys } from './base/session-keys.js';
import type { DecideOptions, Decided, PlanDecider, PlanDecision } from './base/plan-decider.js';
import type { PartBinding } from './base/part-scope.js';
import { resolveContextPolicy, type ContextPolicy } from './base/context-policy.js';
import type { GraphReplannerInput } from './graph/graph-prompts.js';
import { linearMode } from './modes/linear-mode.js';
import type { PlanMode, ReplannerInputOptions, ReplannerTurnInput } from './modes/plan-mode.js';
import { reviewFeedbackMessages } from './review/review-feedback.js';
import { refusalOf, type PlanCheck } from './policy/plan-check.js';
import { stepResultsCap } from './base/step-result-cap.js';
import { stepsOf } from './base/plan-schema.js';
import { formatPlanJson } from './base/prompts.js';
import { budgetAnswerRequest, isReserveStop, mustAnswer } from './budget/budget-answer.js';
import { executedStepIds, UNDO_META, undoMarksOf, undoProblem, withoutUndo, withUndoField } from './compensation/undo-marks.js';

export interface ReplannerOptions<S extends z.ZodType = typeof defaultPlanSchema> {
  readonly model: ChatModel;
  /**
   * Which completed-step results the prompt shows (default `'full'` in linear mode, `'summarized'`
   * in graph mode: the mode's). Recorded in `meta.contextPolicy` of the replanner's decision event.
   */
  readonly contextPolicy?: ContextPolicy;
  /** Graph mode: replaces the whole default input (system message included). */
  readonly buildGraphInput?: (input: GraphReplannerInput) => readonly Message[] | Promise<readonly Message[]>;
  /** The plan's zod schema; use the planner's (default `{ steps: string[] }`, or `graphPlanSchema` in graph mode). */
  readonly planSchema?: S;
  /** The `respond` tool's arguments (default `{ response: string }`); a `response` string is the answer text. */
  readonly respondSchema?: z.ZodType;
  /** Replaces the system text of `ReplannerPrompt` (`{planTool}`, `{respondTool}` are filled in). */
  readonly instruction?: string;
  /** Replaces the whole default input (system message included). `executedSteps` includes the step just run. */
  readonly buildInput?: (input: ExecutionContext<z.output<S>>) => readonly Message[] | Promise<readonly Message[]>;
  readonly settings?: ModelSettings;
  readonly name?: string;
  readonly description?: string;
  /** Repair attempts before `PlanningError` (default 2); refusals of `checkPlan` count too. */
  readonly maxRepairs?: number;
  /**
   * Middleware around the replanner's model call (their `prepareRequest` and `wrapModelCall`), e.g.
   * `[promptCache()]`. An `offloadToolResults({ maxTokens })` among them caps each step result the
   * prompt shows at `maxTokens` (about 4 characters a token): a longer one is shown as its head and
   * tail with a note saying that the session keeps it whole and how a later step gets it (by naming
   * `$n` / `$id`).
   */
  readonly middleware?: readonly Middleware[];
}

/** What the replanner decided. */
export type ReplannerDecision = { readonly kind: 'plan'; readonly plan: unknown } | { readonly kind: 'respond'; readonly args: unknown };

/**
 * Reads the replanner's decision. Several tool calls in one answer are resolved deterministically:
 * the first `respond` call wins (answering ends the work); otherwise the first `plan` call;
 * other tools are ignored when one of these is present. Only the chosen call is validated.
 */
export function parseReplannerAnswer(message: Message, planSchema: z.ZodType, respondSchema: z.ZodType): Parsed<ReplannerDecision> {
  const calls = toolCallsOf(message);
  const respond = calls.find((c) => c.name === 'respond');
  if (respond) {
    const parsed = parseCallArgs(respond, respondSchema);
    return parsed.ok ? { ok: true, value: { kind: 'respond', args: parsed.value } } : parsed;
  }
  const plan = calls.find((c) => c.name === 'plan');
  if (plan) {
    const parsed = parseCallArgs(plan, planSchema);
    return parsed.ok ? { ok: true, value: { kind: 'plan', plan: parsed.value } } : parsed;
  }
  return { ok: false, problem: `the answer must call "respond" or "plan", but ${calledNames(calls)}` };
}

/** The final answer of a `respond` call: its `response` text, and its arguments as the structured answer. */
function finalAnswerOf(args: unknown): FinalAnswer {
  const response = (args as { response?: unknown } | undefined)?.response;
  return { text: typeof response === 'string' ? response : JSON.stringify(args), structured: args };
}

/**
 * The replanner: one model call (plus repairs) offering `plan` and `respond` — only `respond` once
 * the run's budget is under its reserve (`limits.onExhausted: 'answer'`): then it answers from the
 * steps done, and the answer is `partial` with the plan's steps `notRun`. It appends the step
 * just executed to `ExecutedSteps` in the same event that stores the new `Plan` (tagged
 * `revised-plan`) or the final answer (tagged `answer`, with `actions.final` and `exitLoop`), so a
 * retried or resumed replanner never appends twice: once that event is stored it does nothing.
 */
export class Replanner<S extends z.ZodType = typeof defaultPlanSchema> implements PlanDecider {
  readonly name: string;
  readonly role = 'replanner' as const;
  /** Observers report its turns as planning (`plan {agent}` spans). */
  readonly operation = 'plan' as const;
  readonly description: string;
  /** Its plan mode: linear until a plan–execute agent binds it to the agent's `mode`. */
  readonly mode: PlanMode;
  /** The state keys it reads and writes (`SessionKeys` unless its plan–execute agent has its own name). */
  readonly keys: PlanExecuteKeys;
  /** The plan's zod schema (the plan type is its `z.output`). */
  readonly planSchema: S;
  private readonly respondSchema: z.ZodType;
  /** True when its answer's structured value is the answer (a `respondSchema` of its own), false when the text is. */
  readonly structuredAnswer: boolean;
  private readonly tools: readonly ToolSpec[];
  private readonly respondTool: ToolSpec;
  private readonly checkPlan: PlanCheck | undefined;
  private readonly inputOptions: ReplannerInputOptions;
  /** Whether its tools offer `undo` (its plan–execute agent's executor has compensable tools). */
  private readonly undo: boolean;

  constructor(
    readonly options: ReplannerOptions<S>,
    keys: PlanExecuteKeys = SessionKeys,
    bound: { readonly mode: PlanMode; readonly checkPlan?: PlanCheck | undefined; readonly undo?: boolean | undefined } = {
      mode: linearMode,
    },
  ) {
    this.undo = bound.undo === true;
    this.keys = keys;
    this.checkPlan = bound.checkPlan;
    this.name = options.name ?? 'replanner';
    assertAgentName(this.name);
    assertModel(options.model, `Replanner "${this.name}"`);
    this.description = options.description ?? 'Revises the plan after each step, or gives the final answer.';
    this.mode = bound.mode;
    const contextPolicy = resolveContextPolicy(options.contextPolicy, this.mode.contextPolicy.replanner, `Replanner "${this.name}"`);
    this.planSchema = (options.planSchema ?? this.mode.planSchema) as S;
    this.respondSchema = options.respondSchema ?? defaultRespondSchema;
    this.structuredAnswer = options.respondSchema !== undefined;
    this.inputOptions = {
      keys,
      contextPolicy,
      maxResultChars: stepResultsCap(options.middleware),
      instruction: options.instruction,
      buildInput: options.buildInput as ReplannerInputOptions['buildInput'],
      buildGraphInput: options.buildGraphInput,
    };
    const respond = respondToolFor(this.respondSchema);
    this.respondTool = this.undo ? withUndoField(respond) : respond;
    const plan = planToolFor(this.planSchema, `Replanner "${this.name}"`);
    this.tools = [this.undo ? withUndoField(plan) : plan, this.respondTool];
  }

  async *run(ctx: InvocationContext): AsyncGenerator<AgentEvent, void, undefined> {
    if (ctx.ownEvents().some((e) => tagOf(e) === 'revised-plan' || tagOf(e) === 'answer')) return;
    const { decided, input, notRun } = yield* this.turn(ctx, {});
    const { decision: value, response } = decided;
    const marks = this.undo ? undoMarksOf(response.message) : undefined;
    const meta = {
      contextPolicy: input.contextPolicy,
      ...(notRun ? { budget: 'answer' } : {}),
      ...(Array.isArray(marks) && marks.length ? { [UNDO_META]: marks } : {}),
    };
    const usage = response.usage ? { usage: response.usage } : {};
    // Only the step just run is stored (stateAppend), never the whole list again.
    const stateAppend = input.appended.length ? { stateAppend: { [this.keys.ExecutedSteps]: input.appended } } : {};
    if (value.kind === 'plan') {
      const event = ctx.event({
        message: response.message,
        ...usage,
        actions: { stateDelta: { [this.keys.Plan]: value.plan }, ...stateAppend },
      });
      yield tagged(event, 'revised-plan', meta);
      return;
    }
    // Answered because the budget ran low: the run's result says so, and which steps did not run.
    const final: FinalAnswer = notRun ? { ...finalAnswerOf(value.args), partial: true, notRun } : finalAnswerOf(value.args);
    // The answer as text (keeping the model's reasoning blocks), never the raw tool-call JSON.
    const message: Message = { role: 'assistant', content: [...reasoningOf(response.message), textBlock(final.text)] };
    yield tagged(ctx.event({ message, ...usage, actions: { final, exitLoop: true, ...stateAppend } }), 'answer', meta);
  }

  /** One decision: a revision or the answer (see `PlanDecider`). A wrapper's `call` replaces the model call (the role's middleware then does not apply). */
  async *decide(ctx: InvocationContext, how: DecideOptions = {}): AsyncGenerator<AgentEvent, Decided, undefined> {
    return (yield* this.turn(ctx, how)).decided;
  }

  /**
   * One decision and the input it was made from (what `run` appends and records). With
   * `limits.onExhausted: 'answer'`, once what is left is under the reserve (before the call, or
   * when the call is refused for it), the decision is the answer from the steps done, and `notRun`
   * lists the plan's steps that did not run.
   */
  private async *turn(
    ctx: InvocationContext,
    how: DecideOptions,
  ): AsyncGenerator<AgentEvent, { decided: Decided; input: ReplannerTurnInput; notRun?: readonly unknown[] }, undefined> {
    const input = await this.mode.replannerInput(ctx, this.inputOptions);
    const budget = ctx.services.budget;
    if (!mustAnswer(budget))
      try {
        return { decided: yield* this.decision(ctx, how, input, false), input };
      } catch (error) {
        if (!isReserveStop(error)) throw error;
      }
    const notRun = input.notRun ?? stepsOf(ctx.state[this.keys.Plan]);
    return { decided: yield* this.decision(ctx, how, input, notRun), input, notRun };
  }

  /** One model decision (plus repairs): a revision or the answer; only the answer, from the reserve, when `notRun` is given. */
  private async *decision(
    ctx: InvocationContext,
    how: DecideOptions,
    input: ReplannerTurnInput,
    notRun: readonly unknown[] | false,
  ): AsyncGenerator<AgentEvent, Decided, undefined> {
    const own = (m: Message): Parsed<PlanDecision> => {
      // `undo` is not part of the plan or the answer: a strict schema of one's own must not see it.
      const parsed = parseReplannerAnswer(this.undo ? withoutUndo(m) : m, this.planSchema, this.respondSchema);
      if (!parsed.ok) return parsed;
      const badUndo = this.undo ? undoProblem(undoMarksOf(m), executedStepIds(ctx.state, this.keys, input.appended)) : undefined;
      if (badUndo) return { ok: false, problem: badUndo };
      if (parsed.value.kind === 'respond') return { ok: true, value: { kind: 'answer', args: parsed.value.args } };
      const problem = this.mode.validate(parsed.value.plan, input.finished);
      return problem === undefined ? { ok: true, value: { kind: 'plan', plan: parsed.value.plan } } : { ok: false, problem };
    };
    const request: ModelRequest = {
      // After a rejected revision (plan review), the reviewer's feedback comes last.
      messages: [...input.messages, ...reviewFeedbackMessages(ctx, this.keys)],
      tools: this.tools,
      toolChoice: 'required',
      ...(this.options.settings ? { settings: this.options.settings } : {}),
    };
    const answerOnly = (m: Message): Parsed<PlanDecision> => {
      const parsed = own(m);
      return !parsed.ok || parsed.value.kind === 'answer'
        ? parsed
        : { ok: false, problem: 'the budget is used up: call "respond", not "plan"' };
    };
    const parse = notRun ? answerOnly : own;
    const { value, response } = yield* decisionCall<PlanDecision>(ctx, {
      model: this.options.model,
      request: notRun
        ? budgetAnswerRequest(ctx.services.budget, request, this.respondTool, formatPlanJson(notRun), this.options.model.id)
        : request,
      parse: how.parse ? (m) => (how.parse as NonNullable<DecideOptions['parse']>)(m, parse(m)) : parse,
      ...this.checkOption(ctx),
      repairHint: notRun
        ? 'Call "respond" once with the final answer from the completed steps.'
        : 'Call exactly one tool: "respond" with the final answer, or "plan" with the steps still to do.',
      ...(this.options.maxRepairs !== undefined ? { maxRepairs: this.options.maxRepairs } : {}),
      ...(how.call ? { call: how.call } : this.options.middleware ? { middleware: this.options.middleware } : {}),
    });
    return { decision: value, response, userInput: readExecutionState(ctx.state, this.keys).userInput };
  }

  /** The decision's `check` when there is a `checkPlan`: revisions are checked, answers are not. */
  private checkOption(ctx: InvocationContext): { check?: (d: PlanDecision, attempt: number) => Promise<string | undefined> } {
    const { checkPlan } = this;
    if (!checkPlan) return {};
    return {
      check: async (decision, attempt) =>
        decision.kind === 'plan'
          ? refusalOf(checkPlan, decision.plan as z.output<S>, {
              role: 'replanner',
              agent: this.name,
              attempt,
              state: ctx.state,
              signal: ctx.signal,
            })
          : undefined,
    };
  }

  /** This replanner inside a plan–execute agent: its keys, mode and `checkPlan`, and its name if none was given. @internal */
  bind(binding: PartBinding): Replanner<S> {
    const name = this.options.name ?? binding.names.replanner;
    return new Replanner({ ...this.options, name }, binding.keys, { mode: binding.mode, checkPlan: binding.checkPlan, undo: binding.undo });
  }
}

/**
 * Creates a replanner (see `Replanner`) for `createPlanExecuteAgent({ replanner })`, which binds it
 * to the agent's mode, keys and `checkPlan`; like `createPlanner`, its plan type comes from `planSchema`.
 */
export function createReplanner<S extends z.ZodType = typeof defaultPlanSchema>(options: ReplannerOptions<S>): Replanner<S> {
  return new Replanner(options);
}
