import type { ToolCallBlock } from '../messages/content-block.js';
import type { ModelRequest, ModelResponse } from '../models/chat-model.js';
import type { StateAccess } from '../tools/tool-context.js';
import type { Middleware, ModelCallNext, ToolCallNext, ToolOutcome } from './middleware.js';
import type { MiddlewareRun } from './middleware-run.js';

/** The model-call onion of an agent's middleware around `model` (the first middleware outermost). */
export type ModelCallChain = (model: ModelCallNext, request: ModelRequest, run: MiddlewareRun) => Promise<ModelResponse>;
/** The tool-call onion around `tool`; `args` and `state` are the call's. */
export type ToolCallChain = (
  tool: ToolCallNext,
  call: ToolCallBlock,
  run: MiddlewareRun,
  args: unknown,
  state: StateAccess,
) => Promise<ToolOutcome>;

/** Composes the middleware that prepare or wrap model calls, once per agent; undefined when none does (the loop then calls the model directly). */
export function modelCallChain(middleware: readonly Middleware[]): ModelCallChain | undefined {
  const active = middleware.filter((m) => m.prepareRequest || m.wrapModelCall);
  if (!active.length) return undefined;
  return (model, request, run) => {
    const at = (i: number): ModelCallNext => {
      if (i === active.length) return model;
      const m = active[i] as Middleware;
      const ctx = run.contextFor(m);
      const inner = at(i + 1);
      const wrap = m.wrapModelCall?.bind(m);
      const wrapped: ModelCallNext = wrap ? (r) => wrap(inner, r, ctx) : inner;
      const prepare = m.prepareRequest?.bind(m);
      return prepare ? async (r) => wrapped(await prepare(r, ctx)) : wrapped;
    };
    return at(0)(request);
  };
}

/** Composes the middleware that wrap tool calls, once per agent; undefined when none does. */
export function toolCallChain(middleware: readonly Middleware[]): ToolCallChain | undefined {
  const active = middleware.filter((m) => m.wrapToolCall);
  if (!active.length) return undefined;
  return (tool, call, run, args, state) => {
    const at = (i: number): ToolCallNext => {
      if (i === active.length) return tool;
      const m = active[i] as Middleware;
      const wrap = (m.wrapToolCall as NonNullable<Middleware['wrapToolCall']>).bind(m);
      const inner = at(i + 1);
      return (c) => wrap(inner, c, run.toolContextFor(m, c, args, state));
    };
    return at(0)(call);
  };
}
