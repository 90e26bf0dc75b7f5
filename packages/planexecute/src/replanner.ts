import {
  reasoningOf,
  textBlock,
  toolCallsOf,
  type Agent,
  type AgentEvent,
  type ChatModel,
  type FinalAnswer,
  type InvocationContext,
  type Message,
  type Middleware,
  type ModelSettings,
  type ToolSpec,
} from '@replan/core';
import { assertAgentName } from '@replan/core/agent-kit';
import type { z } from 'zod';
import { tagged, tagOf } from './event-kind.js';
import { calledNames, decisionCall, parseCallArgs, type Parsed } from './decision-call.js';
import { defaultPlanSchema } from './plan-schema.js';
import { defaultRespondSchema, planToolFor, respondToolFor } from './plan-tools.js';
import { assertModel } from './assert-model.js';
import { formatReplannerPrompt } from './prompts.js';
import { readExecutionState, SessionKeys, type ExecutedStep, type ExecutionContext, type PlanExecuteKeys } from './session-keys.js';
import type { PartScope } from './part-scope.js';
import { resolveContextPolicy, type ContextPolicy, type ContextPolicyInfo, type ResolvedContextPolicy } from './context-policy.js';
import { linearReplannerContext } from './linear-context.js';
import { graphPlanSchema, type PlanMode } from './graph/graph-plan.js';
import { graphReplannerInput, type GraphReplannerInput } from './graph/graph-replanner-input.js';
import { formatGraphReplannerPrompt } from './graph/graph-prompts.js';
import { checkGraphPlan, type FinishedSteps } from './graph/graph-validation.js';
import { reviewFeedbackMessages } from './review/review-feedback.js';
import { refusalOf, type PlanCheck } from './policy/plan-check.js';
import { stepResultsCap } from './step-result-cap.js';

export interface ReplannerOptions<S extends z.ZodType = typeof defaultPlanSchema> {
  readonly model: ChatModel;
  /**
   * `'linear'` (default) or `'graph'`: the replanner sees the graph with each step's status and
   * answers, or plans only the steps still to run (validated as a DAG over the finished ids).
   */
  readonly mode?: PlanMode;
  /**
   * Which completed-step results the prompt shows (default `'full'` in linear mode, `'summarized'`
   * in graph mode). Recorded in `meta.contextPolicy` of the replanner's decision event.
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
   * A plan policy run on each revision (a `plan` call, not an answer) before it is accepted: a
   * refusal is sent back as a repair (see `PlanCheck`). `createPlanExecuteAgent({ checkPlan })`
   * sets it on its replanner.
   */
  readonly checkPlan?: PlanCheck<z.output<S>>;
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
 * The step the executor finished since the last plan or answer, if any: the latest `ExecutedStep`
 * write comes after the latest `ExecutedSteps` write. (After an empty plan there is none.) Only
 * events of this replanner's own plan–execute agent count: those under its parent's path (the
 * loop's), with its keys — another plan–execute agent in the tree never looks like a pending step.
 */
function pendingStep(ctx: InvocationContext, keys: PlanExecuteKeys): ExecutedStep | undefined {
  const slash = ctx.path.lastIndexOf('/');
  const scope = slash >= 0 ? ctx.path.slice(0, slash + 1) : '';
  for (let i = ctx.events.length - 1; i >= 0; i--) {
    const event = ctx.events[i];
    if (!event?.path.startsWith(scope)) continue;
    const actions = event.actions;
    if (actions?.stateAppend && keys.ExecutedSteps in actions.stateAppend) return undefined;
    const delta = actions?.stateDelta;
    if (!delta) continue;
    if (keys.ExecutedSteps in delta) return undefined;
    if (keys.ExecutedStep in delta) return delta[keys.ExecutedStep] as ExecutedStep;
  }
  return undefined;
}

/**
 * The replanner: one model call (plus repairs) offering `plan` and `respond`. It appends the step
 * just executed to `ExecutedSteps` in the same event that stores the new `Plan` (tagged
 * `revised-plan`) or the final answer (tagged `answer`, with `actions.final` and `exitLoop`), so a
 * retried or resumed replanner never appends twice: once that event is stored it does nothing.
 */
export class Replanner<S extends z.ZodType = typeof defaultPlanSchema> implements Agent {
  readonly name: string;
  /** Observers report its turns as planning (`plan {agent}` spans). */
  readonly operation = 'plan' as const;
  readonly description: string;
  readonly mode: PlanMode;
  /** The state keys it reads and writes (`SessionKeys` unless its plan–execute agent has its own name). */
  readonly keys: PlanExecuteKeys;
  private readonly contextPolicy: ResolvedContextPolicy;
  /** The plan's zod schema (the plan type is its `z.output`). */
  readonly planSchema: S;
  private readonly respondSchema: z.ZodType;
  private readonly tools: readonly ToolSpec[];
  private readonly maxResultChars: number | undefined;

  constructor(
    readonly options: ReplannerOptions<S>,
    keys: PlanExecuteKeys = SessionKeys,
  ) {
    this.keys = keys;
    this.name = options.name ?? 'replanner';
    assertAgentName(this.name);
    assertModel(options.model, `Replanner "${this.name}"`);
    this.description = options.description ?? 'Revises the plan after each step, or gives the final answer.';
    this.mode = options.mode ?? 'linear';
    this.contextPolicy = resolveContextPolicy(
      options.contextPolicy,
      this.mode === 'graph' ? 'summarized' : 'full',
      `Replanner "${this.name}"`,
    );
    this.planSchema = (options.planSchema ?? (this.mode === 'graph' ? graphPlanSchema : defaultPlanSchema)) as S;
    this.respondSchema = options.respondSchema ?? defaultRespondSchema;
    this.maxResultChars = stepResultsCap(options.middleware);
    this.tools = [planToolFor(this.planSchema, `Replanner "${this.name}"`), respondToolFor(this.respondSchema)];
  }

  async *run(ctx: InvocationContext): AsyncGenerator<AgentEvent, void, undefined> {
    if (ctx.ownEvents().some((e) => tagOf(e) === 'revised-plan' || tagOf(e) === 'answer')) return;
    const input = this.mode === 'graph' ? await this.graphInput(ctx) : await this.linearInput(ctx);
    const { value, response } = yield* decisionCall(ctx, {
      model: this.options.model,
      request: {
        // After a rejected revision (plan review), the reviewer's feedback comes last.
        messages: [...input.messages, ...reviewFeedbackMessages(ctx, this.keys)],
        tools: this.tools,
        toolChoice: 'required',
        ...(this.options.settings ? { settings: this.options.settings } : {}),
      },
      parse: (m) => {
        const parsed = parseReplannerAnswer(m, this.planSchema, this.respondSchema);
        if (!parsed.ok || parsed.value.kind !== 'plan' || !input.finished) return parsed;
        return checkGraphPlan(parsed.value, input.finished, (d) => d.plan);
      },
      ...this.checkOption(ctx),
      repairHint: 'Call exactly one tool: "respond" with the final answer, or "plan" with the steps still to do.',
      ...(this.options.maxRepairs !== undefined ? { maxRepairs: this.options.maxRepairs } : {}),
      ...(this.options.middleware ? { middleware: this.options.middleware } : {}),
    });
    const meta = { contextPolicy: input.contextPolicy };
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
    const final = finalAnswerOf(value.args);
    // The answer as text (keeping the model's reasoning blocks), never the raw tool-call JSON.
    const message: Message = { role: 'assistant', content: [...reasoningOf(response.message), textBlock(final.text)] };
    yield tagged(ctx.event({ message, ...usage, actions: { final, exitLoop: true, ...stateAppend } }), 'answer', meta);
  }

  /** The decision's `check` when there is a `checkPlan`: revisions are checked, answers are not. */
  private checkOption(ctx: InvocationContext): { check?: (d: ReplannerDecision, attempt: number) => Promise<string | undefined> } {
    const { checkPlan } = this.options;
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

  /** This replanner with a plan policy (the plan–execute agent's `checkPlan`). @internal */
  withCheck(checkPlan: PlanCheck<z.output<S>>): Replanner<S> {
    return new Replanner({ ...this.options, name: this.name, checkPlan }, this.keys);
  }

  /** This replanner inside a plan–execute agent: its keys, and its name if none was given. @internal */
  inScope(scope: PartScope): Replanner<S> {
    return new Replanner({ ...this.options, name: this.options.name ?? scope.names.replanner }, scope.keys);
  }

  /** Linear mode: the progress including the step just run (appended to `ExecutedSteps` with the decision). */
  private async linearInput(ctx: InvocationContext): Promise<ReplannerInput> {
    const state = readExecutionState(ctx.state, this.keys);
    const pending = pendingStep(ctx, this.keys);
    const executedSteps = pending ? [...state.executedSteps, pending] : state.executedSteps;
    const context = linearReplannerContext(executedSteps, this.contextPolicy, this.maxResultChars);
    const input: ExecutionContext = { ...state, executedSteps, context };
    const messages = this.options.buildInput
      ? await this.options.buildInput(input as ExecutionContext<z.output<S>>)
      : formatReplannerPrompt(input, { planTool: 'plan', respondTool: 'respond' }, this.options.instruction);
    return { messages, appended: pending ? [pending] : [], contextPolicy: context.info };
  }

  /** Graph mode: the graph executor already stored every step in `ExecutedSteps`. */
  private async graphInput(ctx: InvocationContext): Promise<ReplannerInput> {
    const input = graphReplannerInput(ctx.state, this.contextPolicy, this.keys, this.maxResultChars);
    const messages = this.options.buildGraphInput
      ? await this.options.buildGraphInput(input)
      : formatGraphReplannerPrompt(input, { planTool: 'plan', respondTool: 'respond' }, this.options.instruction);
    const finished: FinishedSteps = {
      succeeded: new Set(input.executedSteps.filter((s) => s.error === undefined).map((s) => s.id)),
      failed: new Set(input.executedSteps.filter((s) => s.error !== undefined).map((s) => s.id)),
    };
    return { messages, appended: [], contextPolicy: input.context.info, finished };
  }
}

interface ReplannerInput {
  readonly messages: readonly Message[];
  /** What the decision event appends to `ExecutedSteps` (linear mode: the step just run). */
  readonly appended: readonly unknown[];
  readonly contextPolicy: ContextPolicyInfo;
  /** Graph mode: the finished ids a revised graph must not reuse. */
  readonly finished?: FinishedSteps;
}

/** Creates a replanner (see `Replanner`); like `createPlanner`, its plan type comes from `planSchema` (or the mode). */
export function createReplanner(
  options: ReplannerOptions<typeof graphPlanSchema> & { readonly mode: 'graph'; readonly planSchema?: undefined },
): Replanner<typeof graphPlanSchema>;
export function createReplanner<S extends z.ZodType = typeof defaultPlanSchema>(options: ReplannerOptions<S>): Replanner<S>;
// biome-ignore lint/suspicious/noExplicitAny: the implementation takes every overload's options (their `buildInput` parameters differ).
export function createReplanner(options: ReplannerOptions<any>): Replanner<z.ZodType> {
  return new Replanner(options);
}
