import type { z } from 'zod';
import {
  messageText,
  toolCallsOf,
  type AgentEvent,
  type ChatModel,
  type InvocationContext,
  type Message,
  type Middleware,
  type ModelRequest,
  type ModelSettings,
} from '@replan/core';
import { assertAgentName } from '@replan/core/agent-kit';
import { assertModel } from './base/assert-model.js';
import { tagged, tagOf } from './base/event-tags.js';
import { calledNames, decisionCall, parseCallArgs, parseWith, type Parsed } from './base/decision-call.js';
import { planToolFor } from './plan-tools.js';
import { formatPlannerPrompt, type PlannerPromptInput } from './base/prompts.js';
import { SessionKeys, type PlanExecuteKeys } from './base/session-keys.js';
import { conversationOf } from './base/user-input.js';
import type { PlanMode } from './modes/plan-mode.js';
import { linearMode } from './modes/linear-mode.js';
import type { PartBinding } from './base/part-scope.js';
import type { DecideOptions, Decided, PlanDecider, PlanDecision } from './base/plan-decider.js';
import { reviewFeedbackMessages } from './review/review-feedback.js';
import { refusalOf, type PlanCheck } from './policy/plan-check.js';
import type { ResolvedPlanMemory } from './base/plan-memory-options.js';
import { pastPlansMessage, recallPlans, recordedRecall } from './memory/past-plans.js';
import { reusedPlanEvent } from './memory/plan-reuse.js';

/** How the planner gets a structured plan from its model. */
export type StructuredOutput = 'tool-call' | 'response-format';

export interface PlannerOptions<S extends z.ZodType | undefined = undefined> {
  readonly model: ChatModel;
  /** The plan's zod schema (default: the mode's, `{ steps: string[] }` or `graphPlanSchema`); it needs a `steps` array. Stored as plain JSON. */
  readonly planSchema?: S;
  /** Replaces the system text of `PlannerPrompt` (`{tools}` is filled in). */
  readonly instruction?: string;
  /** Replaces the whole default input (system message included). */
  readonly buildInput?: (input: PlannerPromptInput) => readonly Message[] | Promise<readonly Message[]>;
  /** `'tool-call'` (default): force the `plan` tool. `'response-format'`: ask for JSON matching the schema. */
  readonly structuredOutput?: StructuredOutput;
  /** The executor's tools, listed in the prompt so the plan uses them. */
  readonly tools?: readonly { readonly name: string; readonly description: string }[];
  readonly settings?: ModelSettings;
  readonly name?: string;
  readonly description?: string;
  /** Repair attempts before `PlanningError` (default 2); refusals of `checkPlan` count too. */
  readonly maxRepairs?: number;
  /**
   * Middleware around the planner's model call (their `prepareRequest` and `wrapModelCall`), e.g.
   * `[promptCache()]`: one cache key per session and planner. The streaming planner does not apply them.
   */
  readonly middleware?: readonly Middleware[];
}

const stripJsonFence = (text: string) => text.trim().replace(/^```(?:json)?\s*([\s\S]*?)\s*```$/, '$1');

/** Reads a plan from a forced `plan` tool call. */
export function parsePlanCall<S extends z.ZodType>(message: Message, schema: S): Parsed<z.output<S>> {
  const calls = toolCallsOf(message);
  const call = calls.find((c) => c.name === 'plan');
  if (!call) return { ok: false, problem: `the answer must call the "plan" tool, but ${calledNames(calls)}` };
  return parseCallArgs(call, schema);
}

/** Reads a plan from a JSON text answer (response-format mode). */
function parsePlanText<S extends z.ZodType>(message: Message, schema: S): Parsed<z.output<S>> {
  const text = messageText(message);
  let json: unknown;
  try {
    json = JSON.parse(stripJsonFence(text));
  } catch (error) {
    return { ok: false, problem: `the answer is not valid JSON (${(error as Error).message})` };
  }
  return parseWith(schema, json, 'the plan fields');
}

/**
 * The planner: one model call (plus repairs) that writes the plan. Stores `UserInput`, `Plan`
 * and an empty `ExecutedSteps` with the event carrying the model's answer (tagged `plan`). When
 * its own events already hold a plan (a resumed run), it does nothing: it is never called twice.
 */
export class Planner<S extends z.ZodType | undefined = undefined> implements PlanDecider {
  readonly name: string;
  readonly role = 'planner' as const;
  /** Observers report its turns as planning (`plan {agent}` spans). */
  readonly operation = 'plan' as const;
  readonly description: string;
  readonly planSchema: z.ZodType;
  /** Type only: the `planSchema` it was given (`undefined`: the mode's). */
  declare readonly givenSchema: S;
  /** Its plan mode: linear until a plan–execute agent binds it to the agent's `mode`. */
  readonly mode: PlanMode;
  /** The state keys it writes (`SessionKeys` unless its plan–execute agent has its own name). */
  readonly keys: PlanExecuteKeys;
  private readonly checkPlan: PlanCheck | undefined;
  private readonly request: Omit<ModelRequest, 'messages'>;
  /** Past plans recalled (and reused): the plan–execute agent's `memory`. */
  private readonly memory: ResolvedPlanMemory | undefined;

  constructor(
    readonly options: PlannerOptions<S>,
    keys: PlanExecuteKeys = SessionKeys,
    bound: {
      readonly mode: PlanMode;
      readonly checkPlan?: PlanCheck | undefined;
      readonly memory?: ResolvedPlanMemory | undefined;
    } = { mode: linearMode },
  ) {
    this.keys = keys;
    this.checkPlan = bound.checkPlan;
    this.memory = bound.memory;
    this.name = options.name ?? 'planner';
    assertAgentName(this.name);
    assertModel(options.model, `Planner "${this.name}"`);
    this.description = options.description ?? 'Writes a step-by-step plan for the objective.';
    this.mode = bound.mode;
    this.planSchema = options.planSchema ?? this.mode.planSchema;
    const plan = planToolFor(this.planSchema, `Planner "${this.name}"`);
    this.request =
      options.structuredOutput === 'response-format'
        ? { responseFormat: { name: 'plan', schema: plan.parameters, strict: true }, ...settingsOf(options) }
        : { tools: [plan], toolChoice: { name: 'plan' }, ...settingsOf(options) };
  }

  async *run(ctx: InvocationContext): AsyncGenerator<AgentEvent, void, undefined> {
    if (ctx.ownEvents().some((e) => tagOf(e) === 'plan')) return;
    if (this.memory) {
      // Past plans: searched once (recorded), shown in the prompt; a close one may stand in for the call.
      const recall = yield* recallPlans(ctx, this.memory);
      // After a person rejected a plan (review), the planner plans again: no stored plan stands in.
      const rejected = reviewFeedbackMessages(ctx, this.keys).length > 0;
      const reused = recall.reuse && !rejected ? yield* reusedPlanEvent(this, ctx, recall, this.memory, conversationOf(ctx)) : undefined;
      if (reused) {
        yield reused;
        return;
      }
    }
    const { decision, response, userInput } = yield* this.decide(ctx);
    const plan = decision.kind === 'plan' ? decision.plan : undefined;
    const event = ctx.event({
      message: response.message,
      ...(response.usage ? { usage: response.usage } : {}),
      actions: { stateDelta: { [this.keys.UserInput]: userInput, [this.keys.Plan]: plan, [this.keys.ExecutedSteps]: [] } },
    });
    yield tagged(event, 'plan');
  }

  /** One decision: the plan (see `PlanDecider`). A wrapper's `call` replaces the model call (the role's middleware then does not apply). */
  async *decide(ctx: InvocationContext, how: DecideOptions = {}): AsyncGenerator<AgentEvent, Decided, undefined> {
    const { userInput, request } = await this.firstRequest(ctx);
    const own = (m: Message): Parsed<PlanDecision> => {
      const parsed = this.parseAnswer(m);
      return parsed.ok ? { ok: true, value: { kind: 'plan', plan: parsed.value } } : parsed;
    };
    const check = this.checkOption(ctx).check;
    const { value, response } = yield* decisionCall<PlanDecision>(ctx, {
      model: this.options.model,
      request,
      parse: how.parse ? (m) => (how.parse as NonNullable<DecideOptions['parse']>)(m, own(m)) : own,
      ...(check ? { check: (d: PlanDecision, attempt: number) => check(d.kind === 'plan' ? d.plan : undefined, attempt) } : {}),
      repairHint: this.repairHint,
      ...(this.options.maxRepairs !== undefined ? { maxRepairs: this.options.maxRepairs } : {}),
      ...(how.call ? { call: how.call } : this.options.middleware ? { middleware: this.options.middleware } : {}),
    });
    return { decision: value, response, userInput };
  }

  /** The conversation planned for and the first request (prompt, forced tool, settings). @internal */
  async firstRequest(ctx: InvocationContext): Promise<{ userInput: readonly Message[]; request: ModelRequest }> {
    const userInput = conversationOf(ctx);
    const budget = ctx.services.budget.view();
    const input: PlannerPromptInput = {
      userInput,
      state: ctx.state,
      ...(this.options.tools ? { tools: this.options.tools } : {}),
      ...(budget ? { budget } : {}),
    };
    const messages = [
      ...(this.options.buildInput
        ? await this.options.buildInput(input)
        : formatPlannerPrompt(input, this.options.instruction ?? this.mode.prompts.planner.system)),
    ];
    // Past plans (memory) after the system prompt; after a rejected plan (plan review), the reviewer's feedback comes last.
    const past = this.memory ? pastPlansMessage(recordedRecall(ctx), this.memory.maxTokens) : undefined;
    if (past) {
      const at = messages.findIndex((m) => m.role !== 'system');
      messages.splice(at < 0 ? messages.length : at, 0, past);
    }
    return { userInput, request: { ...this.request, messages: [...messages, ...reviewFeedbackMessages(ctx, this.keys)] } };
  }

  /** Reads the plan in a model answer and has its mode check it (a graph: a DAG). @internal */
  parseAnswer(message: Message): Parsed<unknown> {
    const parsed = this.textMode ? parsePlanText(message, this.planSchema) : parsePlanCall(message, this.planSchema);
    const problem = parsed.ok ? this.mode.validate(parsed.value) : undefined;
    return problem === undefined ? parsed : { ok: false, problem };
  }

  /** The decision's `check` when there is a `checkPlan`. @internal */
  checkOption(ctx: InvocationContext): { check?: (plan: unknown, attempt: number) => Promise<string | undefined> } {
    const { checkPlan } = this;
    if (!checkPlan) return {};
    return {
      check: (plan, attempt) =>
        refusalOf(checkPlan, plan, { role: 'planner', agent: this.name, attempt, state: ctx.state, signal: ctx.signal }),
    };
  }

  /** What a repair message asks for. @internal */
  get repairHint(): string {
    return this.textMode
      ? 'Reply with only a JSON object that matches the plan schema.'
      : 'Call the "plan" tool once, with arguments that match its schema.';
  }

  /** This planner inside a plan–execute agent: its keys, mode and `checkPlan`, and its name if none was given. @internal */
  bind(binding: PartBinding): Planner<S> {
    const name = this.options.name ?? binding.names.planner;
    return new Planner({ ...this.options, name }, binding.keys, {
      mode: binding.mode,
      checkPlan: binding.checkPlan,
      memory: binding.memory,
    });
  }

  /** Its request without messages: the forced `plan` tool or the JSON response format. @internal */
  get planRequest(): Omit<ModelRequest, 'messages'> {
    return this.request;
  }

  /** Its model. */
  get model(): ChatModel {
    return this.options.model;
  }

  /** True when the plan comes as JSON text (`structuredOutput: 'response-format'`), not a `plan` call. */
  get textMode(): boolean {
    return this.options.structuredOutput === 'response-format';
  }
}

const settingsOf = (o: { readonly settings?: ModelSettings }) => (o.settings ? { settings: o.settings } : {});

/**
 * Creates a planner (see `Planner`) for `createPlanExecuteAgent({ planner })`, which binds it to
 * the agent's mode, keys and `checkPlan`. Its plan type is `z.output` of its `planSchema` (without
 * one: the agent's mode's plan).
 */
export function createPlanner<S extends z.ZodType | undefined = undefined>(options: PlannerOptions<S>): Planner<S> {
  return new Planner(options);
}
