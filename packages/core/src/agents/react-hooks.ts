import type { ToolCallBlock } from '../messages/content-block.js';
import type { ModelRequest, ModelResponse } from '../models/chat-model.js';
import type { StateAccess } from '../tools/tool-context.js';

type Awaitable<T> = T | Promise<T>;

/** What a hook sees of the run. State writes (JSON values only) are stored with the agent's next event. */
export interface HookContext {
  readonly agentName: string;
  readonly invocationId: string;
  readonly sessionId: string;
  readonly userId: string;
  /** Model calls made so far by this agent in this run. */
  readonly iteration: number;
  readonly state: StateAccess;
  readonly signal: AbortSignal;
}

export interface ToolHookContext extends HookContext {
  readonly call: ToolCallBlock;
}

export type HookErrorSite = { readonly stage: 'model' } | { readonly stage: 'tool'; readonly call: ToolCallBlock };

/**
 * Callbacks around the ReAct loop. Returning `undefined` lets the loop go on; returning a value
 * short-circuits that stage; throwing fails the run with that error.
 */
export interface ReActHooks {
  /** Return a response to skip the model call. */
  beforeModel?: (ctx: HookContext, request: ModelRequest) => Awaitable<ModelResponse | undefined | void>;
  /** Return a response to replace the model's. */
  afterModel?: (ctx: HookContext, response: ModelResponse) => Awaitable<ModelResponse | undefined | void>;
  /** Return an output to skip the tool (the output is sent to the model as the tool's result). */
  beforeTool?: (ctx: ToolHookContext, args: unknown) => Awaitable<unknown>;
  /** Return an output to replace the tool's. */
  afterTool?: (ctx: ToolHookContext, output: unknown, isError: boolean) => Awaitable<unknown>;
  /**
   * A model call or tool failed. For a model: return a response to use instead. For a tool: return
   * an output to send the model instead of the error. Throw to fail the run. A tool that threw
   * stores none of its own state writes (the hook sees the state as before the call); state the
   * hook sets is kept.
   */
  onError?: (ctx: HookContext, error: unknown, site: HookErrorSite) => Awaitable<unknown>;
}
