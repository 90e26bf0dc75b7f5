import type { AgentEvent, EventDraft } from '../events/agent-event.js';
import type { Guardrails } from '../invocation/guardrail.js';
import type { ToolCallBlock } from '../messages/content-block.js';
import type { ChatModel, ModelRequest, ModelResponse } from '../models/chat-model.js';
import type { Tool } from '../tools/tool.js';
import type { StateAccess } from '../tools/tool-context.js';
import type { InvocationContext } from '../invocation/invocation-context.js';

type Awaitable<T> = T | Promise<T>;

/**
 * What a middleware sees of one run of its agent. A middleware object is shared by every run of
 * the agent (parallel plan steps included): keep per-run data keyed by this object (a `WeakMap`),
 * which stays the same for the whole run.
 */
export interface MiddlewareContext {
  readonly agentName: string;
  /** The agent's place in the tree, e.g. `root/plan_execute/executor`. */
  readonly path: string;
  readonly invocationId: string;
  readonly sessionId: string;
  readonly userId: string;
  /** Model calls made so far by this agent in this run. */
  readonly iteration: number;
  /** Session state; writes (JSON values only) are stored with the agent's next event. */
  readonly state: StateAccess;
  readonly signal: AbortSignal;
  /** The agent's model (a middleware that calls a model of its own may default to it). */
  readonly model: ChatModel;
  /** The invocation (session, events so far, services): for model calls of a middleware's own (`streamModelCall`). */
  readonly invocation: InvocationContext;
  /**
   * Appends an event of this middleware's own (`meta.middleware` is the middleware's name), stored
   * in order with the agent's events. Returns it as it will be stored.
   */
  record(draft: EventDraft): AgentEvent;
  /**
   * The events middleware `name` recorded in this agent's run: earlier in this invocation,
   * before a crash or an interrupt (a resumed run), or in the recording a replay follows — so a
   * middleware rebuilds its work (a summary, a recall) instead of doing it again.
   */
  recorded(name: string): readonly AgentEvent[];
}

/** How a tool call ended: its output (sent to the model and stored) and whether it is an error. */
export interface ToolOutcome {
  readonly output: unknown;
  readonly isError: boolean;
  /** What the tool threw, when it threw (`output` is then the error text the model is shown). */
  readonly error?: unknown;
}

/** A `MiddlewareContext` for one tool call. */
export interface ToolCallContext extends MiddlewareContext {
  readonly call: ToolCallBlock;
  /** The call's arguments, parsed and validated by the tool's schema. */
  readonly args: unknown;
  /** This call's state writes: stored with its result; dropped when the tool throws (writes made here after that are kept). */
  readonly state: StateAccess;
}

/** The model call a `wrapModelCall` wraps: the next middleware inward, and at the centre the model. */
export type ModelCallNext = (request: ModelRequest) => Promise<ModelResponse>;
/** The tool call a `wrapToolCall` wraps: the next middleware inward, and at the centre the tool. */
export type ToolCallNext = (call: ToolCallBlock) => Promise<ToolOutcome>;

/**
 * One capability plugged into a `ReActAgent`'s loop (`new ReActAgent({ middleware: [...] })`, the
 * first the outermost). Every member is optional but `name`.
 *
 * A model call goes through the middleware from the first to the last: each one's
 * `prepareRequest`, then its `wrapModelCall` around the rest; a tool call likewise through each
 * `wrapToolCall`. An interrupt, an abort or a budget stop passes through `next` as a thrown
 * error: rethrow what you do not handle.
 */
export interface Middleware {
  readonly name: string;
  /** Tools this middleware adds to the agent's own (a name the agent already has is a `ConfigurationError`). */
  readonly tools?: readonly Tool[];
  /** The request about to be sent: return it, or a rewritten copy (never mutate it). */
  prepareRequest?(request: ModelRequest, ctx: MiddlewareContext): Awaitable<ModelRequest>;
  /** Around one model call: call `next` (zero, one or more times) and return a response. */
  wrapModelCall?(next: ModelCallNext, request: ModelRequest, ctx: MiddlewareContext): Promise<ModelResponse>;
  /** Around one validated (and, with `needsApproval`, approved) tool call. */
  wrapToolCall?(next: ToolCallNext, call: ToolCallBlock, ctx: ToolCallContext): Promise<ToolOutcome>;
  /**
   * Before a `needsApproval` call stops the run to ask a person (no answer given for it yet): a
   * grant (`{ meta }`) lets it run unasked, `meta` stored on the call's result event so the log
   * says what covered it (plan–execute's plan grants: `{ grantedBy: '<review interrupt id>' }`);
   * `undefined` asks as usual. The first middleware that grants wins. Read grants from the log or
   * state, never from memory, so a resumed run (in any process) grants the same calls.
   */
  grantApproval?(call: ToolCallBlock, ctx: ToolCallContext): Awaitable<{ readonly meta: Readonly<Record<string, unknown>> } | undefined>;
  /**
   * Checks on the run's input and final answer (`guardrails(...)`): the runner applies them when
   * this agent is the one a run starts, and a tripwire ends the run `blocked`.
   */
  readonly guardrails?: Guardrails;
}
