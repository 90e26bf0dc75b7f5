import type { AgentEvent, EventDraft } from '../events/agent-event.js';
import type { InvocationContext } from './invocation-context.js';
import { type ToolCallGrants, type ToolCallWrap, toolRuntimeOf } from './tool-runtime.js';
import type { ToolContext } from '../tools/tool-context.js';

/**
 * The run a tool call belongs to, for a tool that runs tools of its own and keeps its own
 * records in the log (`@replan/code`'s `codeTool`).
 */
export interface ToolCallRun {
  /** The calling agent's invocation: the session's events so far, resume answers, services (for `executeToolCalls`). */
  readonly invocation: InvocationContext;
  /**
   * Stores an event of this call's own (stamped as the calling agent's) at once, in order with the
   * run's other events, and resolves once it is durable — so the tool may act on it being stored.
   * Label it in `meta` (e.g. `meta.codeCall` for inner calls, which no model sees).
   */
  record(draft: EventDraft): Promise<AgentEvent>;
  /**
   * The calling agent's approval grants (`Middleware.grantApproval`, e.g. a plan–execute step's
   * plan grants), when any middleware grants: pass them as `executeToolCalls(…, { grants })` so a
   * call the tool makes itself is granted as the agent's own call would be (and asks when not).
   */
  readonly grants?: ToolCallGrants;
  /**
   * The calling agent's tool middleware (`wrapToolCall` and `grantApproval`), when any: pass it as
   * `executeToolCalls(…, { wrap })` so each call the tool makes itself goes through the same chain
   * as the agent's own calls (audit, hooks, offloading, grants see it). Run a call through it only
   * when the call really runs — one answered from the log must not run middleware again.
   */
  readonly wrap?: ToolCallWrap;
}

/**
 * The run of a tool call, or `undefined` when the tool runs outside a `Runner` (a `ToolContext`
 * built by hand): a tool that needs it should then say so in its result.
 */
export function toolCallRun(ctx: ToolContext): ToolCallRun | undefined {
  const invocation = toolRuntimeOf(ctx)?.invocation;
  const append = invocation?.services.appendNow;
  if (!invocation || !append) return undefined;
  const grants = toolRuntimeOf(ctx)?.grants;
  const wrap = toolRuntimeOf(ctx)?.wrap;
  return {
    invocation,
    ...(grants ? { grants } : {}),
    ...(wrap ? { wrap } : {}),
    async record(draft) {
      const event = invocation.event(draft);
      await append(event);
      return event;
    },
  };
}
