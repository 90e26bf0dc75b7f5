import type { AgentEvent, EventDraft, FinalAnswer } from '../events/agent-event.js';
import type { Guardrails } from '../invocation/guardrail.js';
import { ConfigurationError } from '../errors/replan-error.js';
import { EmptyModelResponseError, MaxIterationsError, OutputValidationError } from '../errors/run-errors.js';
import { type Message, messageText, systemMessage, toolCallsOf, userMessage } from '../messages/message.js';
import type { ChatModel, ModelRequest, ModelResponse, ModelSettings, ToolChoice, ToolSpec } from '../models/chat-model.js';
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
import { RunInterruptedSignal } from '../invocation/run-interrupted.js';
import { executeToolCalls } from './tool-execution.js';
import { pendingToolCalls } from './pending-tool-calls.js';
import { modelTurnThrough } from '../middleware/call-model-through.js';
import type { Middleware } from '../middleware/middleware.js';
import {
  type ApprovalGrantChain,
  approvalGrantChain,
  type ModelCallChain,
  modelCallChain,
  type ToolCallChain,
  toolCallChain,
} from '../middleware/compose.js';
import { MiddlewareRun } from '../middleware/middleware-run.js';
import { mergeGuardrails } from '../guardrails/guardrails-middleware.js';

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
  /**
   * What plugs into the loop (docs/middleware.md): the first is the outermost. Built in:
   * `compaction()`, `offloadToolResults()`, `promptCache()`, `planReActTags()`,
   * `builtInThinking()`, `hooks({...})`, `guardrails({...})`.
   */
  readonly middleware?: readonly Middleware[];
  /**
   * Replaces the context built from the session (`includeContents`/`includeSources` then do not
   * apply): the model sees the instruction, these messages, then this agent's own turn so far.
   * For agents whose input is computed, e.g. a plan-execute executor built from the plan.
   */
  readonly inputMessages?: (ctx: InvocationContext) => readonly Message[] | Promise<readonly Message[]>;
}

const EMPTY_NUDGE = 'Your last reply was empty. Continue: call a tool if you still need one, or give your final answer as text.';
const MAX_OUTPUT_REPAIRS = 2;

/**
 * The ReAct loop: build context → middleware → model → tool calls run concurrently (each through
 * the middleware), each result stored as it finishes → repeat until the model answers without tool
 * calls, or `maxIterations`. Compaction, offloading, caching, hooks and guardrails are middleware:
 * the loop knows none of them.
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
  private readonly middleware: readonly Middleware[];
  private readonly modelChain: ModelCallChain | undefined;
  private readonly toolChain: ToolCallChain | undefined;
  private readonly grantChain: ApprovalGrantChain | undefined;

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
    const middleware = options.middleware ?? [];
    for (const m of middleware)
      if (!m || typeof m.name !== 'string' || !m.name)
        throw new ConfigurationError(`ReActAgent "${options.name}": every middleware needs a name (an object { name, ... }).`);
    this.middleware = middleware;
    this.guardrails = mergeGuardrails(middleware);
    const tools = new Map<string, Tool>();
    for (const t of options.tools ?? []) {
      if (tools.has(t.name)) throw new ConfigurationError(`ReActAgent "${options.name}": two tools are named "${t.name}".`);
      tools.set(t.name, t);
    }
    for (const m of middleware)
      for (const t of m.tools ?? []) {
        if (tools.has(t.name))
          throw new ConfigurationError(
            `ReActAgent "${options.name}": middleware "${m.name}" adds a tool named "${t.name}", and the agent already has one; rename your tool.`,
          );
        tools.set(t.name, t);
      }
    this.tools = tools;
    this.toolSpecs = [...tools.values()].map(toolSpecOf);
    this.modelChain = modelCallChain(middleware);
    this.toolChain = toolCallChain(middleware);
    this.grantChain = approvalGrantChain(middleware);
    this.output =
      options.outputSchema === undefined
        ? undefined
        : resolveSchema(options.outputSchema, `ReActAgent "${options.name}": outputSchema`, 'output');
  }

  /** This agent as a tool that runs it in a child session per call: `agentTool(this, options)`. */
  asTool<Schema extends SchemaInput = typeof agentToolParameters, Output = unknown>(
    options: AgentToolOptions<Schema, Output> = {},
  ): Tool<SchemaOutput<Schema>, unknown> {
    return agentTool(this, options);
  }

  /** The agent's tool named `name` (its own or its middleware's). */
  toolNamed(name: string): Tool | undefined {
    return this.tools.get(name);
  }

  async *run(ctx: InvocationContext): AsyncGenerator<AgentEvent, void, undefined> {
    const own = ctx.ownEvents();
    if (own.some((e) => e.actions?.final)) return; // finished before a crash or an interrupt
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
    // Without middleware the loop allocates nothing for it (the fast path of every plain agent).
    const mw = this.middleware.length ? new MiddlewareRun(ctx, this.options.model, own) : undefined;
    if (mw) mw.iteration = iteration;
    const emit = (draft: EventDraft): AgentEvent => {
      const written = mw?.state.take();
      if (!written) return ctx.event(draft);
      const stateDelta = { ...written, ...draft.actions?.stateDelta };
      return ctx.event({ ...draft, actions: { ...draft.actions, stateDelta } });
    };
    const toolOptions = {
      tools: this.tools,
      concurrency: this.options.toolConcurrency ?? 8,
      ...(mw && (this.toolChain || this.grantChain) ? { wrap: { chain: this.toolChain, grant: this.grantChain, run: mw } } : {}),
    };

    for (;;) {
      if (pending.length) {
        const execution = executeToolCalls(ctx, pending, toolOptions);
        let step = await execution.next();
        for (; !step.done; step = await execution.next()) {
          yield step.value;
          if (step.value.message) messages.push(step.value.message);
        }
        if (step.value.length) throw new RunInterruptedSignal(step.value);
        pending = [];
      }
      if (mw?.waiting.length) yield* mw.waiting.splice(0);
      if (iteration >= this.maxIterations) throw new MaxIterationsError(this.name, this.maxIterations);

      const request = await this.request(ctx, messages);
      let response: ModelResponse;
      if (mw && this.modelChain) response = yield* modelTurnThrough(ctx, mw, this.modelChain, this.options.model, request);
      else response = yield* callModel(ctx, this.options.model, request);
      iteration++;
      if (mw) mw.iteration = iteration; // what the tool calls of this turn and the next request see
      const message = response.message;
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
    const { instruction, settings, toolChoice } = this.options;
    const output = this.output;
    const tools = this.toolSpecs;
    const text = typeof instruction === 'function' ? await instruction(ctx.state, ctx) : instruction;
    // Field by field, not spread: this runs on every iteration.
    const request: { -readonly [K in keyof ModelRequest]: ModelRequest[K] } = {
      // Always a new list: the loop keeps appending to its own, and a model may keep the request it was sent.
      messages: text ? [this.systemMessage(text), ...context] : [...context],
    };
    if (tools.length) {
      request.tools = tools;
      if (toolChoice) request.toolChoice = toolChoice;
    }
    if (output) request.responseFormat = { name: `${this.name}_output`, schema: output.jsonSchema, strict: true };
    if (settings) request.settings = settings;
    return request;
  }

  /** The system message for `text`: the same object while the text stays the same, so its fingerprint digest is cached. */
  private systemMessage(text: string): Message {
    const last = this.lastSystem;
    if (last && messageText(last) === text) return last;
    this.lastSystem = systemMessage(text);
    return this.lastSystem;
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
