import pLimit from 'p-limit';
import type { AgentEvent, Interrupt } from '../events/agent-event.js';
import type { ToolCallBlock, ToolResultBlock } from '../messages/content-block.js';
import { toolMessage } from '../messages/message.js';
import { DeltaState } from '../sessions/delta-state.js';
import { InterruptSignal } from '../tools/interrupt-signal.js';
import type { Tool } from '../tools/tool.js';
import type { ToolContext } from '../tools/tool-context.js';
import { toolOutputJson } from '../tools/tool-output-json.js';
import { mediaContentProblem, withBase64Media } from '../messages/media-check.js';
import { TOOL_RUNTIME, type ToolCallGrants, type ToolCallWrap, type ToolRuntime } from '../invocation/tool-runtime.js';
import { BudgetExceededError } from '../errors/run-errors.js';
import { ConcurrentUpdateError } from '../errors/session-errors.js';
import { abortErrorOf, raceAbort, stoppedError, throwIfStopped } from '../errors/abort.js';
import { AsyncQueue } from '../invocation/async-queue.js';
import type { InvocationContext } from '../invocation/invocation-context.js';
import type { RunObservation } from '../observe/run-observation.js';
import type { ToolOutcome } from '../middleware/middleware.js';
import type { ApprovalGrantChain, ToolCallChain } from '../middleware/compose.js';
import type { MiddlewareRun } from '../middleware/middleware-run.js';

/** What a `ToolCallWrap` is (opaque below this layer): the agent's tool-call chain, its grants and the run they belong to. */
interface MiddlewareWrap extends ToolCallWrap {
  readonly chain?: ToolCallChain | undefined;
  readonly grant?: ApprovalGrantChain | undefined;
  readonly run: MiddlewareRun;
}

export interface ToolExecutionOptions {
  readonly tools: ReadonlyMap<string, Tool>;
  readonly concurrency: number;
  /** The agent's middleware around each call (with the run they belong to), when any wraps tool calls or grants approvals. */
  readonly wrap?: MiddlewareWrap | ToolCallWrap | undefined;
  /**
   * Without `wrap`: grants to ask for calls that need approval (a tool's own calls when the
   * calling agent has only grants), so they are granted as the agent's own calls would be.
   */
  readonly grants?: ToolCallGrants | undefined;
}

/** The answer a human gave to a `needsApproval` interrupt (the runner checked it is an `ApprovalAnswer`). */
function approvalOf(value: unknown): { approved: boolean; message?: string } {
  if (typeof value === 'boolean') return { approved: value };
  if (value && typeof value === 'object' && 'approved' in value) {
    const v = value as { approved: unknown; message?: unknown; reason?: unknown };
    const message = typeof v.message === 'string' ? v.message : typeof v.reason === 'string' ? v.reason : undefined;
    return message === undefined ? { approved: v.approved === true } : { approved: v.approved === true, message };
  }
  return { approved: false, message: `unrecognised approval value ${JSON.stringify(value)}` };
}

export const approvalInterruptId = (toolCallId: string) => `${toolCallId}:approval`;
export const toolInterruptId = (toolCallId: string, n: number) => `${toolCallId}:${n}`;

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * Runs tool calls concurrently (at most `concurrency` at once) and yields each one's event as soon
 * as it finishes, so its result is stored before its siblings end. An interrupting call yields an
 * interrupt event instead. Returns the interrupts raised.
 */
export async function* executeToolCalls(
  ctx: InvocationContext,
  calls: readonly ToolCallBlock[],
  options: ToolExecutionOptions,
): AsyncGenerator<AgentEvent, Interrupt[], undefined> {
  const queue = new AsyncQueue<AgentEvent>();
  const concurrency = Math.max(1, options.concurrency);
  // p-limit only when there are more calls than slots: most turns have one or two calls.
  const limit: <T>(task: () => Promise<T>) => Promise<T> = calls.length > concurrency ? pLimit(concurrency) : (task) => task();
  const interrupts: Interrupt[] = [];
  let remaining = calls.length;
  const run = ctx.services.observation ? observedRunOne : runOne;
  // Events middleware record during the calls are stored in order with the results.
  // A tool's own calls run through the same middleware (`codeTool`'s inner calls, while the agent's
  // call runs): what middleware record then goes where the agent's call sends it, stored by the loop.
  const wrap = options.wrap as MiddlewareWrap | undefined;
  const middlewareRun = wrap?.run.sink ? undefined : wrap?.run;
  if (middlewareRun) middlewareRun.sink = (event) => queue.push(event);
  const take = (event: AgentEvent) => {
    const interrupt = event.actions?.interrupt;
    if (interrupt) interrupts.push(interrupt);
    // An interrupt stored before (a resume that did not answer it) is not stored twice.
    if (!interrupt || !ctx.services.interruptIds.has(interrupt.id)) queue.push(event);
  };
  for (const call of calls)
    void limit(() => run(ctx, call, options)).then(
      (outcome) => {
        if (Array.isArray(outcome)) outcome.forEach(take);
        else take(outcome);
        if (--remaining === 0) queue.close();
      },
      (error) => queue.fail(error),
    );
  if (!calls.length) queue.close();
  try {
    for (let event = await queue.next(); event; event = await queue.next()) yield event;
  } finally {
    if (middlewareRun) middlewareRun.sink = undefined;
  }
  return interrupts;
}

/**
 * `runOne` reported to the run's observers (only when some are registered). Chained with `then`
 * rather than wrapped in another `async` function: it runs on every tool call.
 */
function observedRunOne(ctx: InvocationContext, call: ToolCallBlock, options: ToolExecutionOptions): Promise<AgentEvent | AgentEvent[]> {
  // A call that never starts (its run stopped first) is not reported as one.
  const stopped = stoppedError(ctx.services.signal, ctx.services.checkLease);
  if (stopped) return Promise.reject(stopped);
  const end = (ctx.services.observation as RunObservation).toolCall(ctx, call);
  return runOne(ctx, call, options).then(
    (event) => {
      const block = Array.isArray(event) ? undefined : event.message?.content[0];
      if (block?.type === 'tool_result') end(block.output, block.isError === true);
      else end(undefined, false, undefined, true);
      return event;
    },
    (error: unknown) => {
      end(undefined, true, error);
      throw error;
    },
  );
}

/** One call's result event, or its interrupt events (one per question asked). */
async function runOne(ctx: InvocationContext, call: ToolCallBlock, options: ToolExecutionOptions): Promise<AgentEvent | AgentEvent[]> {
  const { services } = ctx;
  // A call taken up after its run stopped (its append was in flight, or it waited for a slot) does nothing at all.
  throwIfStopped(services.signal, services.checkLease);
  const state = new DeltaState(services.session.state);
  const wrap = options.wrap as MiddlewareWrap | undefined; // only ReActAgent builds one
  const chain = wrap?.grant;
  const grants: ToolCallGrants | undefined = chain && wrap ? (c, a, s) => chain(c, wrap.run, a, s) : options.grants;
  const runtime: ToolRuntime = { invocation: ctx, ...(grants ? { grants } : {}), ...(wrap ? { wrap } : {}) };
  const withMeta = (event: AgentEvent): AgentEvent =>
    runtime.resultMeta ? { ...event, meta: { ...event.meta, ...runtime.resultMeta } } : event;
  const result = (returned: unknown, isError = false): AgentEvent => {
    // The model gets what is stored: the output's JSON form (`undefined` becomes `null`). A tool
    // returning what JSON cannot hold gets an error result the run can go on from, on every store.
    // An image or file the tool built with its bytes as `data` is kept as base64, like one from imageFromBytes.
    const json = toolOutputJson(Array.isArray(returned) ? withBase64Media(returned) : returned);
    let output = json.ok ? json.value : undefined;
    // Returned images and files are checked here, so a malformed one is the model's error result, not a failed append.
    const mediaIssue = json.ok ? mediaContentProblem(output) : undefined;
    if (mediaIssue) {
      output = `Error: tool "${call.name}" returned an invalid image or file (${mediaIssue}). Its result is lost; tell the user the tool failed.`;
      isError = true;
    } else if (!json.ok) {
      output = `Error: tool "${call.name}" returned a value that cannot be stored as JSON (${json.problem}). Its result is lost; tell the user the tool failed.`;
      isError = true;
      console.warn(
        `replan: tool "${call.name}" returned a value that is not JSON (${json.problem}); the model got an error result instead. ` +
          'Return strings, numbers, booleans, null, arrays and plain objects (a BigInt as a string, no cycles).',
      );
    }
    const block: ToolResultBlock = isError
      ? { type: 'tool_result', toolCallId: call.id, name: call.name, output, isError: true }
      : { type: 'tool_result', toolCallId: call.id, name: call.name, output };
    const stateDelta = state.take();
    return withMeta(ctx.event({ message: toolMessage([block]), ...(stateDelta ? { actions: { stateDelta } } : {}) }));
  };
  // An interrupt names the agent that asked: `path` is set by nested agents (agentTool), else it is this agent.
  const interruptEvent = (interrupt: Interrupt): AgentEvent =>
    withMeta(ctx.event({ actions: { interrupt: interrupt.path ? interrupt : { ...interrupt, path: ctx.path } } }));

  const tool = options.tools.get(call.name);
  if (!tool) {
    const names = [...options.tools.keys()];
    return result(
      `Error: unknown tool "${call.name}". Available tools: ${names.length ? names.join(', ') : 'none'}. Call one of them or answer without a tool.`,
      true,
    );
  }
  if (call.argsError)
    return result(`Error: the arguments of "${call.name}" are not valid JSON (${call.argsError}). Send valid JSON arguments.`, true);
  const parsed = tool.parseArgs(call.args);
  if (!parsed.ok)
    return result(
      `Error: invalid arguments for "${call.name}": ${parsed.issues} (its parameters are a ${tool.schemaKind}). Fix the arguments and call the tool again.`,
      true,
    );
  const args = parsed.value;

  let interruptCount = 0;
  const toolCtx: ToolContext & { readonly [TOOL_RUNTIME]: ToolRuntime } = {
    toolName: tool.name,
    toolCallId: call.id,
    idempotencyKey: `${services.session.id}:${call.id}`,
    agentName: ctx.agent.name,
    appName: services.session.appName,
    userId: services.session.userId,
    sessionId: services.session.id,
    invocationId: services.invocationId,
    signal: services.signal,
    state,
    [TOOL_RUNTIME]: runtime,
    interrupt<T>(payload: unknown, opts?: { reason?: string }): T {
      const id = toolInterruptId(call.id, ++interruptCount);
      if (services.resumeValues.has(id)) return services.resumeValues.get(id) as T;
      throw new InterruptSignal({ id, reason: opts?.reason ?? 'input', payload, toolCallId: call.id, toolName: tool.name });
    },
  };

  if (tool.needsApproval) {
    const needs = typeof tool.needsApproval === 'function' ? await tool.needsApproval(args, toolCtx) : true;
    if (needs) {
      const id = approvalInterruptId(call.id);
      // A middleware may grant it (a plan approved with this call in it): it runs unasked, the grant on its result.
      const grant = services.resumeValues.has(id) || !grants ? undefined : await grants(call, args, state);
      if (grant) runtime.resultMeta = { ...runtime.resultMeta, ...grant.meta };
      else if (!services.resumeValues.has(id))
        return interruptEvent({ id, reason: 'approval', payload: { tool: tool.name, args }, toolCallId: call.id, toolName: tool.name });
      const answer = grant ? { approved: true } : approvalOf(services.resumeValues.get(id));
      if (!answer.approved)
        return result(
          `The user rejected this call of "${tool.name}"${answer.message ? `: ${answer.message}` : ''}. Do not retry it unchanged.`,
          true,
        );
    }
  }

  let toolArgs = args;
  // The call itself, at the centre of the middleware: a throw becomes an error outcome (its state
  // writes dropped); an interrupt, an abort, a budget stop or a lost session passes through.
  const execute = async (called: ToolCallBlock): Promise<ToolOutcome> => {
    if (called !== call) {
      const reparsed = tool.parseArgs(called.args); // a middleware rewrote the arguments: checked like the model's
      if (!reparsed.ok) return { output: `Error: invalid arguments for "${call.name}": ${reparsed.issues}.`, isError: true };
      toolArgs = reparsed.value;
    }
    const rollback = state.savepoint();
    try {
      // Checked again after the approval and the middleware, and once more as the tool starts: a
      // stopped run never starts a tool; only calls already running may run again after it.
      throwIfStopped(services.signal, services.checkLease);
      const output = await raceAbort(
        Promise.resolve().then(() => {
          throwIfStopped(services.signal, services.checkLease);
          services.budget.recordToolCall({ path: ctx.path, label: ctx.label?.id });
          return tool.execute(toolArgs, toolCtx);
        }),
        services.signal,
      );
      return { output, isError: runtime.errorResult === true };
    } catch (error) {
      if (error instanceof InterruptSignal) throw error;
      if (services.signal.aborted) throw abortErrorOf(services.signal);
      // The run's shared budget ran out inside the tool (a nested agent): the run stops resumable, no result stored.
      if (error instanceof BudgetExceededError) throw error;
      // Another run writes the session tree (a child session of agentTool leased or written elsewhere): this run
      // stops, resumable, and stores no result for the call; the run that holds the tree finishes it.
      if (error instanceof ConcurrentUpdateError) throw error;
      // A call that throws stores none of its state writes; what middleware set after it is kept.
      rollback();
      return { output: `Error: tool "${tool.name}" failed: ${errorText(error)}`, isError: true, error };
    }
  };
  let outcome: ToolOutcome;
  try {
    outcome = wrap?.chain ? await wrap.chain(execute, call, wrap.run, args, state) : await execute(call);
  } catch (error) {
    if (error instanceof InterruptSignal) {
      state.take();
      return error.interrupts.map(interruptEvent);
    }
    throw error;
  }
  return result(outcome.output, outcome.isError);
}
