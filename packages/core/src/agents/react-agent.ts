import type { AgentEvent, EventDraft, FinalAnswer } from '../events/agent-event.js';
import type { Guardrails } from '../guardrails/guardrail.js';
import { ConfigurationError } from '../errors/replan-error.js';
import { EmptyModelResponseError, MaxIterationsError, ModelCallError, OutputValidationError } from '../errors/run-errors.js';
import { type Message, messageText, systemMessage, toolCallsOf, userMessage } from '../messages/message.js';
import type { ChatModel, ModelRequest, ModelResponse, ModelSettings, ToolChoice, ToolSpec } from '../models/chat-model.js';
import type { ReActPlanner } from '../reasoning/react-planner.js';
import { DeltaState } from '../sessions/delta-state.js';
import { type Tool, toolSpecOf } from '../tools/tool.js';
import { type ResolvedSchema, resolveSchema } from '../tools/schemas/resolve-schema.js';
import type { SchemaInput, SchemaOutput } from '../tools/schemas/schema-input.js';
import { type AgentToolOptions, agentTool, type agentToolParameters } from '../composition/agent-tool.js';
import { buildContextMessages } from '../context/build-context.js';
import type { ContextOptions } from '../context/context-options.js';
import type { Agent } from '../invocation/agent.js';
import { assertAgentName } from '../invocation/agent-name.js';
import type { InvocationContext } from '../invocation/invocation-context.js';
import { callModel } from '../invocation/model-call.js';
import type { HookContext, ReActHooks } from './react-hooks.js';
import { RunInterruptedSignal } from '../invocation/run-interrupted.js';
import { executeToolCalls } from './tool-execution.js';
import { type CompactionOptions, type ResolvedCompaction, resolveCompaction } from '../compaction/compaction-options.js';
import { TurnCompactor } from '../compaction/turn-compactor.js';
import { isContextLengthError } from '../errors/context-length-error.js';
import type { ToolResultsOptions } from '../tools/offload/tool-result-preview.js';
import { ToolResultOffload } from '../tools/offload/tool-result-offload.js';
import { pendingToolCalls } from './pending-tool-calls.js';
import { type PromptCacheOptions, requestCache } from './prompt-cache.js';

export type Instruction = string | ((state: Readonly<Record<string, unknown>>, ctx: InvocationContext) => string | Promise<string>);

export interface ReActAgentOptions extends ContextOptions {
  readonly name: string;
  readonly description?: string;
  readonly model: ChatModel;
  readonly instruction?: Instruction;
  readonly tools?: readonly Tool[];
  /** Most model calls in one run of this agent (default 10). Reaching it ends the run `max_iterations`. */
  readonly maxIterations?: number;
  /** Most tool calls of one model turn running at once (default 8). */
  readonly toolConcurrency?: number;
  /** Store the answer (text, or the structured answer) in session state under this key. */
  readonly outputKey?: string;
  /**
   * Ask for and validate a structured answer: a zod v4 or zod v3 schema, a JSON Schema, or
   * `jsonSchema(schema, validate)`. Invalid answers are sent back twice, then fail.
   */
  readonly outputSchema?: SchemaInput;
  readonly toolChoice?: ToolChoice;
  readonly settings?: ModelSettings;
  readonly hooks?: ReActHooks;
  /** Checks on the run's input and final output when a run starts this agent (a tripwire ends it `blocked`). */
  readonly guardrails?: Guardrails;
  readonly planner?: ReActPlanner;
  /**
   * Replaces the context built from the session (`includeContents`/`includeSources` then do not
   * apply): the model sees the instruction, these messages, then this agent's own turn so far.
   * For agents whose input is computed, e.g. a plan-execute executor built from the plan.
   */
  readonly inputMessages?: (ctx: InvocationContext) => readonly Message[] | Promise<readonly Message[]>;
  /**
   * Keep a long turn inside the model's window: past `triggerRatio × maxInputTokens` (estimated
   * before each call) the older part of this run's turn is replaced by a quoted summary, stored as
   * an `actions.compaction` event; a `ContextLengthError` compacts and retries once. Off by default.
   */
  readonly compaction?: CompactionOptions;
  /**
   * Offload large tool results: one longer than `maxTokens` is stored whole but shown as its head
   * and tail with a note, and the agent gains `read_tool_result` and `search_tool_result` to read
   * the rest (this session's results only). Off by default.
   */
  readonly toolResults?: ToolResultsOptions;
  /** Prompt caching: every request carries `ModelRequest.cache` (default key: one per session and agent). Off by default. */
  readonly promptCache?: PromptCacheOptions;
}

const EMPTY_NUDGE = 'Your last reply was empty. Continue: call a tool if you still need one, or give your final answer as text.';
const MAX_OUTPUT_REPAIRS = 2;

/**
 * The ReAct loop: build context → hooks → model → tool calls run concurrently, each result stored
 * as it finishes → repeat until the model answers without tool calls, or `maxIterations`.
 */
export class ReActAgent implements Agent {
  readonly name: string;
  readonly description: string;
  readonly subAgents: readonly Agent[] = [];
  readonly maxIterations: number;
  readonly guardrails: Guardrails | undefined;
  private readonly tools: ReadonlyMap<string, Tool>;
  private readonly output: ResolvedSchema | undefined;
  private lastSystem: Message | undefined;
  /** The tools as the model sees them: built once (a request per iteration reuses them). */
  private readonly toolSpecs: readonly ToolSpec[];
  private readonly compaction: ResolvedCompaction | undefined;
  private readonly offload: ToolResultOffload | undefined;

  constructor(readonly options: ReActAgentOptions) {
    assertAgentName(options.name);
    if (!options.model || typeof options.model.generate !== 'function')
      throw new ConfigurationError(`ReActAgent "${options.name}" needs a model (a ChatModel).`);
    if (options.includeSources && options.includeSources.length === 0)
      throw new ConfigurationError(
        `ReActAgent "${options.name}": includeSources: [] would hide everything; leave it undefined to hear everyone.`,
      );
    const maxIterations = options.maxIterations ?? 10;
    if (!Number.isInteger(maxIterations) || maxIterations < 1)
      throw new ConfigurationError(`ReActAgent "${options.name}": maxIterations must be a positive integer.`);
    this.name = options.name;
    this.description = options.description ?? '';
    this.maxIterations = maxIterations;
    this.guardrails = options.guardrails;
    const tools = new Map<string, Tool>();
    for (const t of options.tools ?? []) {
      if (tools.has(t.name)) throw new ConfigurationError(`ReActAgent "${options.name}": two tools are named "${t.name}".`);
      tools.set(t.name, t);
    }
    this.tools = tools;
    this.offload = options.toolResults ? new ToolResultOffload(options.name, options.toolResults, tools) : undefined;
    this.toolSpecs = [...[...tools.values()].map(toolSpecOf), ...(this.offload?.specs ?? [])];
    this.output =
      options.outputSchema === undefined
        ? undefined
        : resolveSchema(options.outputSchema, `ReActAgent "${options.name}": outputSchema`, 'output');
    this.compaction = options.compaction ? resolveCompaction(options.name, options.compaction, options.model) : undefined;
  }

  /** This agent as a tool that runs it in a child session per call: `agentTool(this, options)`. */
  asTool<Schema extends SchemaInput = typeof agentToolParameters, Output = unknown>(
    options: AgentToolOptions<Schema, Output> = {},
  ): Tool<SchemaOutput<Schema>, unknown> {
    return agentTool(this, options);
  }

  async *run(ctx: InvocationContext): AsyncGenerator<AgentEvent, void, undefined> {
    const own = ctx.ownEvents();
    if (own.some((e) => e.actions?.final)) return; // finished before a crash or an interrupt
    const hookState = new DeltaState(ctx.state);
    let iteration = 0;
    let outputRepairs = 0;
    for (const e of own) {
      if (e.message?.role === 'assistant' || e.meta?.kind === 'empty-response') iteration++;
      if (e.meta?.kind === 'invalid-output') outputRepairs++;
    }
    let justNudged = own[own.length - 1]?.meta?.kind === 'empty-response';
    let pending = pendingToolCalls(own);
    const messages = this.options.inputMessages
      ? [...(await this.options.inputMessages(ctx)), ...own.flatMap((e) => (e.message && !e.partial ? [e.message] : []))]
      : buildContextMessages(ctx, this.options);
    const offload = this.offload;
    const compactor = this.compaction && new TurnCompactor(this.name, this.compaction, messages, own, offload?.previews);
    const runTools = offload ? offload.toolsFor(ctx, this.tools) : this.tools;
    const emit = (draft: EventDraft): AgentEvent => {
      const hookDelta = hookState.take();
      if (!hookDelta) return ctx.event(draft);
      const stateDelta = { ...hookDelta, ...draft.actions?.stateDelta };
      return ctx.event({ ...draft, actions: { ...draft.actions, stateDelta } });
    };
    const hookContext = (state: DeltaState): HookContext => ({
      agentName: this.name,
      invocationId: ctx.invocationId,
      sessionId: ctx.session.id,
      userId: ctx.session.userId,
      iteration,
      state,
      signal: ctx.signal,
    });

    for (;;) {
      if (pending.length) {
        const execution = executeToolCalls(ctx, pending, {
          tools: runTools,
          concurrency: this.options.toolConcurrency ?? 8,
          ...(this.options.hooks ? { hooks: this.options.hooks } : {}),
          hookContext,
        });
        let step = await execution.next();
        for (; !step.done; step = await execution.next()) {
          yield step.value;
          if (step.value.message) messages.push(step.value.message);
        }
        if (step.value.length) throw new RunInterruptedSignal(step.value);
        pending = [];
      }
      if (iteration >= this.maxIterations) throw new MaxIterationsError(this.name, this.maxIterations);

      let response: ModelResponse;
      if (compactor) response = yield* this.respondCompacted(ctx, compactor, hookContext(hookState));
      else response = yield* this.respond(ctx, await this.request(ctx, messages), hookContext(hookState));
      iteration++;
      const message = this.options.planner?.processResponse?.(response.message) ?? response.message;
      const usage = response.usage ? { usage: response.usage } : {};
      const calls = toolCallsOf(message);
      if (calls.length) {
        const event = emit({ message, ...usage });
        yield event;
        messages.push(message);
        pending = calls;
        justNudged = false;
        continue;
      }
      const text = messageText(message);
      if (!text.trim()) {
        if (justNudged) throw new EmptyModelResponseError(this.name);
        const nudge = emit({ message: userMessage(EMPTY_NUDGE), ...usage, meta: { kind: 'empty-response' } });
        yield nudge;
        messages.push(nudge.message as Message);
        justNudged = true;
        continue;
      }
      justNudged = false;
      const final = this.finalAnswer(text);
      if ('invalid' in final) {
        if (++outputRepairs > MAX_OUTPUT_REPAIRS) throw new OutputValidationError(this.name, text, final.invalid);
        yield emit({ message, ...usage });
        const repair = emit({
          message: userMessage(
            `Your answer does not match the required JSON schema: ${final.invalid}. Reply again with JSON that matches it.`,
          ),
          meta: { kind: 'invalid-output' },
        });
        yield repair;
        messages.push(message, repair.message as Message);
        continue;
      }
      const outputKey = this.options.outputKey;
      yield emit({
        message,
        ...usage,
        actions: {
          final,
          ...(outputKey ? { stateDelta: { [outputKey]: final.structured !== undefined ? final.structured : final.text } } : {}),
        },
      });
      return;
    }
  }

  private async request(ctx: InvocationContext, context: readonly Message[]): Promise<ModelRequest> {
    const { instruction, planner } = this.options;
    const output = this.output;
    const tools = this.toolSpecs;
    const parts: string[] = [];
    const text = typeof instruction === 'function' ? await instruction(ctx.state, ctx) : instruction;
    if (text) parts.push(text);
    const plannerText = planner?.instruction?.(tools);
    if (plannerText) parts.push(plannerText);
    const settings = planner?.settings ? planner.settings(this.options.settings) : this.options.settings;
    const shown = this.offload ? this.offload.previews.all(context) : context;
    const cache = requestCache(this.options.promptCache, ctx, this.name);
    return {
      // Always a new list: the loop keeps appending to its own, and a model may keep the request it was sent.
      messages: parts.length ? [this.systemMessage(parts.join('\n\n')), ...shown] : [...shown],
      ...(tools.length ? { tools } : {}),
      ...(this.options.toolChoice && tools.length ? { toolChoice: this.options.toolChoice } : {}),
      ...(output ? { responseFormat: { name: `${this.name}_output`, schema: output.jsonSchema, strict: true } } : {}),
      ...(settings ? { settings } : {}),
      ...(cache ? { cache } : {}),
    };
  }

  /** The system message for `text`: the same object while the text stays the same, so its fingerprint digest is cached. */
  private systemMessage(text: string): Message {
    const last = this.lastSystem;
    if (last && messageText(last) === text) return last;
    this.lastSystem = systemMessage(text);
    return this.lastSystem;
  }

  private async *respond(
    ctx: InvocationContext,
    request: ModelRequest,
    hookCtx: HookContext,
  ): AsyncGenerator<AgentEvent, ModelResponse, undefined> {
    const hooks = this.options.hooks;
    let response = (await hooks?.beforeModel?.(hookCtx, request)) ?? undefined;
    if (!response) {
      try {
        response = yield* callModel(ctx, this.options.model, request);
      } catch (error) {
        const recovered =
          error instanceof ModelCallError && hooks?.onError
            ? ((await hooks.onError(hookCtx, error, { stage: 'model' })) as ModelResponse | undefined)
            : undefined;
        if (!recovered) throw error;
        response = recovered;
      }
    }
    return (await hooks?.afterModel?.(hookCtx, response)) ?? response;
  }

  /** One model turn with compaction: compacted when the request passes the trigger, and once more on a context overflow. */
  private async *respondCompacted(
    ctx: InvocationContext,
    compactor: TurnCompactor,
    hookCtx: HookContext,
  ): AsyncGenerator<AgentEvent, ModelResponse, undefined> {
    const build = (context: readonly Message[]) => this.request(ctx, context);
    let request = (yield* compactor.prepare(ctx, build)) as ModelRequest;
    let response: ModelResponse;
    try {
      response = yield* this.respond(ctx, request, hookCtx);
    } catch (error) {
      if (!isContextLengthError(error)) throw error;
      const smaller = yield* compactor.prepare(ctx, build, true);
      if (!smaller) throw error; // nothing left to summarise: the overflow stands
      request = smaller;
      response = yield* this.respond(ctx, request, hookCtx);
    }
    compactor.calibrate(request, response.usage);
    return response;
  }

  private finalAnswer(text: string): FinalAnswer | { invalid: string } {
    const schema = this.output;
    if (!schema) return { text };
    let json: unknown;
    try {
      json = JSON.parse(stripJsonFence(text));
    } catch (error) {
      return { invalid: `not valid JSON (${(error as Error).message})` };
    }
    const parsed = schema.parse(json);
    if (!parsed.ok) return { invalid: `${parsed.issues} (the outputSchema is a ${schema.kind})` };
    return { text, structured: parsed.value };
  }
}

const stripJsonFence = (text: string) => text.trim().replace(/^```(?:json)?\s*([\s\S]*?)\s*```$/, '$1');
