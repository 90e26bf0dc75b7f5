import type { InvocationContext } from './invocation-context.js';
import type { ToolCallBlock } from '../messages/content-block.js';
import type { StateAccess, ToolContext } from '../tools/tool-context.js';

/**
 * The calling agent's tool middleware with the run they belong to, opaque at this layer: the
 * agents layer builds it (`ReActAgent`) and reads it (`executeToolCalls`); a tool only passes it on.
 */
export interface ToolCallWrap {
  readonly run: object;
}

/**
 * Asks the calling agent's middleware (`Middleware.grantApproval`) for a grant of one call that
 * needs approval, given its parsed arguments and the call's state: the grant's `meta` goes on the
 * call's result, or `undefined` (the call asks).
 */
export type ToolCallGrants = (
  call: ToolCallBlock,
  args: unknown,
  state: StateAccess,
) => Promise<{ readonly meta: Readonly<Record<string, unknown>> } | undefined>;

/**
 * What the runtime knows about a tool call beyond the public `ToolContext`: the calling agent's
 * invocation (services, path) for tool sources that run agents themselves (`agentTool`), and
 * labels they want on the call's stored result. Kept behind a symbol so it is not public API.
 */
export interface ToolRuntime {
  readonly invocation: InvocationContext;
  /**
   * The calling agent's approval grants (`Middleware.grantApproval`), when any middleware grants:
   * a tool that makes calls of its own (`codeTool`) offers them the same grants.
   */
  readonly grants?: ToolCallGrants;
  /**
   * The calling agent's tool middleware (`wrapToolCall`, `grantApproval`): a tool that makes calls
   * of its own (`codeTool`) runs them through the same chain, so audit, hooks and grants see them.
   */
  readonly wrap?: ToolCallWrap;
  /** Merged into the `meta` of the event that stores this call's result or interrupts. */
  resultMeta?: Record<string, unknown>;
  /** Set by a replayed tool (`replayTools`) returning a recorded error result: the output is stored with `isError: true`. */
  errorResult?: boolean;
}

export const TOOL_RUNTIME: unique symbol = Symbol('replan.toolRuntime');

/** The runtime of a tool call, or `undefined` for a `ToolContext` built outside a run. */
export const toolRuntimeOf = (ctx: ToolContext): ToolRuntime | undefined =>
  (ctx as ToolContext & { [TOOL_RUNTIME]?: ToolRuntime })[TOOL_RUNTIME];
