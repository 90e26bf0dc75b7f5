import type { z } from 'zod';
import {
  messageText,
  toolCallsOf,
  type Agent,
  type AgentEvent,
  type ChatModel,
  type InvocationContext,
  type Message,
  type Middleware,
  type ModelRequest,
  type ModelSettings,
} from '@replan/core';
import { assertAgentName } from '@replan/core/agent-kit';
import { assertModel } from './assert-model.js';
import { tagged, tagOf } from './event-kind.js';
import { calledNames, decisionCall, parseCallArgs, parseWith, type Parsed } from './decision-call.js';
import { defaultPlanSchema } from './plan-schema.js';
import { planToolFor } from './plan-tools.js';
import { formatPlannerPrompt, type PlannerPromptInput } from './prompts.js';
import { SessionKeys, type PlanExecuteKeys } from './session-keys.js';
import type { PartScope } from './part-scope.js';
import { conversationOf } from './user-input.js';
import { graphPlanSchema, type PlanMode } from './graph/graph-plan.js';
import { GraphPlannerPrompt } from './graph/graph-prompts.js';
import { checkGraphPlan } from './graph/graph-validation.js';
import { reviewFeedbackMessages } from './review/review-feedback.js';
import { refusalOf, type PlanCheck } from './policy/plan-check.js';

/** How the planner gets a structured plan from its model. */
export type StructuredOutput = 'tool-call' | 'response-format';

export interface PlannerOptions<S extends z.ZodType = typeof defaultPlanSchema> {
  readonly model: ChatModel;
  /**
   * `'linear'` (default): a list of steps run one at a time. `'graph'`: steps with `id`, `task`
   * and `dependsOn` (`graphPlanSchema`), validated as a DAG; a faulty graph is sent back for repair.
   */
  readonly mode?: PlanMode;
  /** The plan's zod schema (default `{ steps: string[] }`, or `graphPlanSchema` in graph mode); it needs a `steps` array. Stored as plain JSON. */
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
   * A plan policy run on each plan the model writes before it is accepted: a refusal is sent back
   * as a repair (see `PlanCheck`). `createPlanExecuteAgent({ checkPlan })` sets it on its planner.
   */
  readonly checkPlan?: PlanCheck<z.output<S>>;
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
export class Planner<S extends z.ZodType = typeof defaultPlanSchema> implements Agent {
  readonly name: string;
  /** Observers report its turns as planning (`plan {agent}` spans). */
  readonly operation = 'plan' as const;
  readonly description: string;
  readonly planSchema: S;
  readonly mode: PlanMode;
  /** The state keys it writes (`SessionKeys` unless its plan–execute agent has its own name). */
  readonly keys: PlanExecuteKeys;
  private readonly request: Omit<ModelRequest, 'messages'>;

  constructor(
    readonly options: PlannerOptions<S>,
    keys: PlanExecuteKeys = SessionKeys,
  ) {
    this.keys = keys;
    this.name = options.name ?? 'planner';
    assertAgentName(this.name);
    assertModel(options.model, `Planner "${this.name}"`);
    this.description = options.description ?? 'Writes a step-by-step plan for the objective.';
    this.mode = options.mode ?? 'linear';
    this.planSchema = (options.planSchema ?? (this.mode === 'graph' ? graphPlanSchema : defaultPlanSchema)) as S;
    const plan = planToolFor(this.planSchema, `Planner "${this.name}"`);
    this.request =
      options.structuredOutput === 'response-format'
        ? { responseFormat: { name: 'plan', schema: plan.parameters, strict: true }, ...settingsOf(options) }
        : { tools: [plan], toolChoice: { name: 'plan' }, ...settingsOf(options) };
  }

  async *run(ctx: InvocationContext): AsyncGenerator<AgentEvent, void, undefined> {
    if (ctx.ownEvents().some((e) => tagOf(e) === 'plan')) return;
    const { userInput, request } = await this.firstRequest(ctx);
    const { value: plan, response } = yield* decisionCall(ctx, {
      model: this.options.model,
      request,
      parse: (m) => this.parseAnswer(m),
      ...this.checkOption(ctx),
      repairHint: this.repairHint,
      ...(this.options.maxRepairs !== undefined ? { maxRepairs: this.options.maxRepairs } : {}),
      ...(this.options.middleware ? { middleware: this.options.middleware } : {}),
    });
    const event = ctx.event({
      message: response.message,
      ...(response.usage ? { usage: response.usage } : {}),
      actions: { stateDelta: { [this.keys.UserInput]: userInput, [this.keys.Plan]: plan, [this.keys.ExecutedSteps]: [] } },
    });
    yield tagged(event, 'plan');
  }

  /** The conversation planned for and the first request (prompt, forced tool, settings). @internal */
  async firstRequest(ctx: InvocationContext): Promise<{ userInput: readonly Message[]; request: ModelRequest }> {
    const userInput = conversationOf(ctx);
    const input: PlannerPromptInput = { userInput, state: ctx.state, ...(this.options.tools ? { tools: this.options.tools } : {}) };
    const messages = this.options.buildInput
      ? await this.options.buildInput(input)
      : formatPlannerPrompt(input, this.options.instruction ?? (this.mode === 'graph' ? GraphPlannerPrompt.system : undefined));
    // After a rejected plan (plan review), the reviewer's feedback comes last.
    return { userInput, request: { ...this.request, messages: [...messages, ...reviewFeedbackMessages(ctx, this.keys)] } };
  }

  /** Reads (and in graph mode, checks) the plan in a model answer. @internal */
  parseAnswer(message: Message): Parsed<z.output<S>> {
    const parsed = this.textMode ? parsePlanText(message, this.planSchema) : parsePlanCall(message, this.planSchema);
    return parsed.ok && this.mode === 'graph' ? checkGraphPlan(parsed.value) : parsed;
  }

  /** The decision's `check` when there is a `checkPlan`. @internal */
  checkOption(ctx: InvocationContext): { check?: (plan: z.output<S>, attempt: number) => Promise<string | undefined> } {
    const { checkPlan } = this.options;
    if (!checkPlan) return {};
    return {
      check: (plan, attempt) =>
        refusalOf(checkPlan, plan, { role: 'planner', agent: this.name, attempt, state: ctx.state, signal: ctx.signal }),
    };
  }

  /** This planner with a plan policy (the plan–execute agent's `checkPlan`). @internal */
  withCheck(checkPlan: PlanCheck<z.output<S>>): Planner<S> {
    return new Planner({ ...this.options, name: this.name, checkPlan }, this.keys);
  }

  /** What a repair message asks for. @internal */
  get repairHint(): string {
    return this.textMode
      ? 'Reply with only a JSON object that matches the plan schema.'
      : 'Call the "plan" tool once, with arguments that match its schema.';
  }

  /** This planner inside a plan–execute agent: its keys, and its name if none was given. @internal */
  inScope(scope: PartScope): Planner<S> {
    return new Planner({ ...this.options, name: this.options.name ?? scope.names.planner }, scope.keys);
  }

  /** True when the plan comes as JSON text (`structuredOutput: 'response-format'`), not a `plan` call. */
  get textMode(): boolean {
    return this.options.structuredOutput === 'response-format';
  }
}

const settingsOf = (o: { readonly settings?: ModelSettings }) => (o.settings ? { settings: o.settings } : {});

/**
 * Creates a planner (see `Planner`). Its plan type is `z.output` of its `planSchema`: the default
 * `{ steps: string[] }`, or `GraphPlan` in graph mode without a schema.
 */
export function createPlanner(
  options: PlannerOptions<typeof graphPlanSchema> & { readonly mode: 'graph'; readonly planSchema?: undefined },
): Planner<typeof graphPlanSchema>;
export function createPlanner<S extends z.ZodType = typeof defaultPlanSchema>(options: PlannerOptions<S>): Planner<S>;
// biome-ignore lint/suspicious/noExplicitAny: the implementation takes every overload's options (their `checkPlan` parameters differ).
export function createPlanner(options: PlannerOptions<any>): Planner<z.ZodType> {
  return new Planner(options);
}
