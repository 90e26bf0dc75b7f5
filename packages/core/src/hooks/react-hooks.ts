import type { ToolCallBlock } from '../messages/content-block.js';
import type { ModelRequest, ModelResponse } from '../models/chat-model.js';
import { ModelCallError } from '../errors/run-errors.js';
import type { Middleware, MiddlewareContext, ToolCallContext } from '../middleware/middleware.js';

type Awaitable<T> = T | Promise<T>;

/** What a hook sees of the run: its middleware's context. State writes (JSON values only) are stored with the agent's next event. */
export type HookContext = MiddlewareContext;

/** What a tool hook sees: the call, its parsed arguments, and the call's own state writes (stored with its result). */
export type ToolHookContext = ToolCallContext;

export type HookErrorSite = { readonly stage: 'model' } | { readonly stage: 'tool'; readonly call: ToolCallBlock };

/**
 * Callbacks around the ReAct loop (`hooks({...})`). Returning `undefined` lets the loop go on; returning a value
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

/**
 * The ReAct callbacks as middleware: `new ReActAgent({ ..., middleware: [hooks({ beforeTool, ... })] })`.
 * Model hooks run around the model call (inside the middleware listed before this one), tool
 * hooks around each validated, approved tool call.
 */
export function hooks(callbacks: ReActHooks): Middleware {
  const { beforeModel, afterModel, beforeTool, afterTool, onError } = callbacks;
  const middleware: { -readonly [K in keyof Middleware]: Middleware[K] } = { name: 'hooks' };
  if (beforeModel || afterModel || onError)
    middleware.wrapModelCall = async (next, request, ctx) => {
      let response = (await beforeModel?.(ctx, request)) ?? undefined;
      if (!response) {
        try {
          response = await next(request);
        } catch (error) {
          const recovered =
            error instanceof ModelCallError && onError
              ? ((await onError(ctx, error, { stage: 'model' })) as ModelResponse | undefined)
              : undefined;
          if (!recovered) throw error;
          response = recovered;
        }
      }
      return (await afterModel?.(ctx, response)) ?? response;
    };
  if (beforeTool || afterTool || onError)
    middleware.wrapToolCall = async (next, call, ctx) => {
      const skipped = beforeTool ? await beforeTool(ctx, ctx.args) : undefined;
      let outcome = skipped !== undefined ? { output: skipped, isError: false } : await next(call);
      if ('error' in outcome && onError) {
        // A tool that threw stores none of its writes (already dropped); what the hook sets is kept.
        const recovered = await onError(ctx, outcome.error, { stage: 'tool', call });
        if (recovered !== undefined) outcome = { output: recovered, isError: false };
      }
      if (afterTool) {
        const replaced = await afterTool(ctx, outcome.output, outcome.isError);
        if (replaced !== undefined) outcome = { output: replaced, isError: outcome.isError };
      }
      return outcome;
    };
  return middleware;
}
