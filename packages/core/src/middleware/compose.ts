import type { ToolCallBlock } from '../messages/content-block.js';
import type { ModelRequest } from '../models/chat-model.js';
import type { StateAccess } from '../tools/tool-context.js';
import type { Middleware, MiddlewareContext, ModelCallNext, ToolCallContext, ToolCallNext, ToolOutcome } from './middleware.js';

/** What composing needs of a run: each middleware's context (one per run), and a tool call's. */
export interface MiddlewareContexts {
  contextFor(middleware: Middleware): MiddlewareContext;
  toolContextFor(middleware: Middleware, call: ToolCallBlock, args: unknown, state: StateAccess): ToolCallContext;
}

/** Builds one run's model-call onion around `model` (the first middleware outermost). */
export type ModelCallChain = (run: MiddlewareContexts, model: ModelCallNext) => ModelCallNext;
/** Runs one tool call through the onion around `tool`; `args` and `state` are the call's. */
export type ToolCallChain = (
  tool: ToolCallNext,
  call: ToolCallBlock,
  run: MiddlewareContexts,
  args: unknown,
  state: StateAccess,
) => Promise<ToolOutcome>;

const isPromise = <T>(value: T | Promise<T>): value is Promise<T> => typeof (value as { then?: unknown })?.then === 'function';

/**
 * The middleware that prepare or wrap model calls, composed once per agent; undefined when none
 * does (the loop then calls the model directly). A run builds its onion once, not per call.
 */
export function modelCallChain(middleware: readonly Middleware[]): ModelCallChain | undefined {
  const active = middleware.filter((m) => m.prepareRequest || m.wrapModelCall);
  if (!active.length) return undefined;
  return (run, model) => {
    let next = model;
    for (let i = active.length - 1; i >= 0; i--) {
      const m = active[i] as Middleware;
      const ctx = run.contextFor(m);
      const inner = next;
      const wrap = m.wrapModelCall;
      const wrapped: ModelCallNext = wrap ? (r) => wrap.call(m, inner, r, ctx) : inner;
      const prepare = m.prepareRequest;
      next = prepare
        ? (r) => {
            const prepared = prepare.call(m, r, ctx);
            return isPromise<ModelRequest>(prepared) ? prepared.then(wrapped) : wrapped(prepared);
          }
        : wrapped;
    }
    return next;
  };
}

/** The middleware that wrap tool calls, composed once per agent; undefined when none does. */
export function toolCallChain(middleware: readonly Middleware[]): ToolCallChain | undefined {
  const active = middleware.filter((m) => m.wrapToolCall);
  if (!active.length) return undefined;
  return (tool, call, run, args, state) => {
    let next = tool;
    for (let i = active.length - 1; i >= 0; i--) {
      const m = active[i] as Middleware;
      const wrap = m.wrapToolCall as NonNullable<Middleware['wrapToolCall']>;
      const inner = next;
      const ctx = run.toolContextFor(m, call, args, state);
      next = (c) => wrap.call(m, inner, c, ctx);
    }
    return next(call);
  };
}

/** Asks the middleware that grant approvals, first to last, for a grant of one call (see `Middleware.grantApproval`). */
export type ApprovalGrantChain = (
  call: ToolCallBlock,
  run: MiddlewareContexts,
  args: unknown,
  state: StateAccess,
) => Promise<{ readonly meta: Readonly<Record<string, unknown>> } | undefined>;

/** The middleware that grant approvals, composed once per agent; undefined when none does. */
export function approvalGrantChain(middleware: readonly Middleware[]): ApprovalGrantChain | undefined {
  const active = middleware.filter((m) => m.grantApproval);
  if (!active.length) return undefined;
  return async (call, run, args, state) => {
    for (const m of active) {
      const grant = await (m.grantApproval as NonNullable<Middleware['grantApproval']>).call(
        m,
        call,
        run.toolContextFor(m, call, args, state),
      );
      if (grant) return grant;
    }
    return undefined;
  };
}
