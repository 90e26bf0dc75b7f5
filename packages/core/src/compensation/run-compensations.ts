import type { AgentEvent } from '../events/agent-event.js';
import { type CompensatedCall, CompensationError, type CompensationReport } from '../errors/compensation-error.js';
import { ConfigurationError } from '../errors/replan-error.js';
import { abortErrorOf, raceAbort, throwIfStopped } from '../errors/abort.js';
import type { InvocationContext } from '../invocation/invocation-context.js';
import type { ToolResultBlock } from '../messages/content-block.js';
import { toolMessage } from '../messages/message.js';
import { DeltaState } from '../sessions/delta-state.js';
import type { ToolContext } from '../tools/tool-context.js';
import { toolOutputJson } from '../tools/tool-output-json.js';
import type { CompensationPlan, CompensationTarget } from './compensable-calls.js';
import { COMPENSATION_CALL, compensationCallId } from './compensation-ids.js';

const named = (t: CompensationTarget): CompensatedCall => ({ callId: t.call.id, tool: t.tool.name });
const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** The stored result of compensation `id` in the live log, if any. */
function storedResult(events: readonly AgentEvent[], id: string): ToolResultBlock | undefined {
  for (const event of events)
    for (const block of event.message?.content ?? []) if (block.type === 'tool_result' && block.toolCallId === id) return block;
  return undefined;
}

const hasCall = (events: readonly AgentEvent[], id: string) =>
  events.some((e) => e.message?.content.some((b) => b.type === 'tool_call' && b.id === id));

/**
 * Undoes `plan.targets` one at a time, in the plan's order (reverse order of completion). Each
 * compensation is a tool call of its own, stored like one: its call event (`<callId>:compensate`),
 * then its result, so it runs exactly once across crashes — a stored result is never run again,
 * and a call stored without a result runs again on resume (with the same `idempotencyKey`). The
 * caller stores each yielded event before asking for the next. A throw stores its error result and
 * ends the generator with a `CompensationError` (the rest is not undone, nothing is retried); a
 * stored error result (an earlier attempt failed) ends it the same way without running anything.
 * `ctx` stamps the events (its agent and path) and gives the session; `signal` is the compensations'
 * own (a cancelled run's signal has fired already).
 */
export async function* runCompensations(
  ctx: InvocationContext,
  plan: CompensationPlan,
  signal: AbortSignal,
): AsyncGenerator<AgentEvent, CompensationReport, undefined> {
  const { services } = ctx;
  const undone: CompensatedCall[] = [];
  const targets = plan.targets;
  for (let i = 0; i < targets.length; i++) {
    const target = targets[i] as CompensationTarget;
    const id = compensationCallId(target.call.id);
    const meta = { kind: COMPENSATION_CALL, compensates: target.call.id };
    const fail = (error: string, cause?: unknown) =>
      new CompensationError(
        { undone, notUndone: targets.slice(i).map(named), skipped: plan.skipped, failed: { ...named(target), error } },
        { cause },
      );
    const before = storedResult(services.session.events, id);
    if (before?.isError) throw fail(typeof before.output === 'string' ? before.output : JSON.stringify(before.output));
    if (before) {
      undone.push(named(target));
      continue;
    }
    // A stopped run starts no compensation (it is not a failure: a resume runs it).
    throwIfStopped(signal, undefined);
    if (!hasCall(services.session.events, id))
      yield ctx.event({
        message: { role: 'assistant', content: [{ type: 'tool_call', id, name: target.tool.name, args: target.call.args }] },
        meta,
      });
    const state = new DeltaState(services.session.state);
    const toolCtx: ToolContext = {
      toolName: target.tool.name,
      toolCallId: id,
      idempotencyKey: `${services.session.id}:${id}`,
      agentName: ctx.agent.name,
      appName: services.session.appName,
      userId: services.session.userId,
      sessionId: services.session.id,
      invocationId: services.invocationId,
      signal,
      state,
      interrupt() {
        throw new ConfigurationError(
          `Tool "${target.tool.name}": a compensation cannot ask a human (ctx.interrupt); it runs after the run was cancelled.`,
        );
      },
    };
    const result = (output: unknown, isError: boolean, stateDelta?: Record<string, unknown>): AgentEvent => {
      const block: ToolResultBlock = isError
        ? { type: 'tool_result', toolCallId: id, name: target.tool.name, output, isError: true }
        : { type: 'tool_result', toolCallId: id, name: target.tool.name, output };
      return ctx.event({ message: toolMessage([block]), ...(stateDelta ? { actions: { stateDelta } } : {}), meta });
    };
    // Observers see it as the tool call it is, saying which call it undoes.
    const observed = services.observation?.toolCall(
      ctx,
      { type: 'tool_call', id, name: target.tool.name, args: target.call.args },
      target.call.id,
    );
    let output: unknown;
    try {
      const compensate = target.tool.compensate as NonNullable<typeof target.tool.compensate>;
      // A stopped run stops waiting for it (like any tool call); its result is then not stored, and a resume runs it again.
      output = await raceAbort(
        Promise.resolve().then(() => compensate(target.call.args, target.result, toolCtx)),
        signal,
      );
    } catch (error) {
      if (signal.aborted) {
        observed?.(undefined, true, abortErrorOf(signal));
        throw abortErrorOf(signal); // stopped, not failed: nothing stored, a resume runs it again
      }
      const text = `Error: compensation of "${target.tool.name}" failed: ${errorText(error)}`;
      observed?.(text, true, error);
      yield result(text, true);
      throw fail(errorText(error), error);
    }
    const json = toolOutputJson(output);
    const stored = json.ok ? json.value : `(compensation output is not JSON: ${json.problem})`;
    observed?.(stored, false);
    yield result(stored, false, state.take());
    undone.push(named(target));
  }
  return { undone, skipped: plan.skipped, notUndone: [] };
}
