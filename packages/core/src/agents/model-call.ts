import type { AgentEvent } from '../events/agent-event.js';
import { ModelCallError } from '../errors/run-errors.js';
import type { ChatModel, ModelRequest, ModelResponse, ModelStreamPart } from '../models/chat-model.js';
import { abortErrorOf } from './abort.js';
import type { InvocationContext } from './invocation-context.js';

/**
 * The one streaming model call every agent builds on. It keeps the rules of a model call in one
 * place: the run's budget is checked before the call, usage is recorded once the `finish` part
 * arrives, a failure becomes `ModelCallError` (or the abort's error when `signal` — default: the
 * run's — fired), and a stream that ends without a `finish` part is a `ModelCallError`.
 *
 * Yields every part but `finish` as it arrives (a caller may read a tool call's arguments while
 * they are written); returns the whole response. Stopping early (`return()`) closes the model's
 * stream.
 */
export async function* streamModelCall(
  ctx: InvocationContext,
  model: ChatModel,
  request: ModelRequest,
  signal: AbortSignal = ctx.signal,
): AsyncGenerator<ModelStreamPart, ModelResponse, undefined> {
  beginModelCall(ctx, signal);
  let response: ModelResponse | undefined;
  let parts: AsyncIterator<ModelStreamPart> | undefined;
  try {
    for (;;) {
      let next: IteratorResult<ModelStreamPart>;
      // Only the model's own failures are mapped: an error thrown into this generator at `yield` is the caller's.
      try {
        parts ??= model.stream(request, { signal })[Symbol.asyncIterator]();
        next = await parts.next();
      } catch (error) {
        throw modelCallFailure(ctx, signal, error);
      }
      if (next.done) break;
      if (next.value.type === 'finish') response = next.value.response;
      else yield next.value;
    }
  } finally {
    if (!response) await parts?.return?.().catch(() => undefined);
  }
  if (!response) throw modelCallFailure(ctx, signal, new Error(`model "${model.id}" ended its stream without a finish part`));
  return endModelCall(ctx, model, response);
}

/**
 * Calls a model for an agent with `streamModelCall`'s rules: when the caller asked for streaming,
 * text and reasoning deltas become partial events (shown, never stored); otherwise one `generate`
 * call. Yields the partial events; returns the whole response.
 */
export async function* callModel(
  ctx: InvocationContext,
  model: ChatModel,
  request: ModelRequest,
): AsyncGenerator<AgentEvent, ModelResponse, undefined> {
  if (ctx.streaming) {
    const parts = streamModelCall(ctx, model, request);
    let next: IteratorResult<ModelStreamPart, ModelResponse> | undefined;
    try {
      for (next = await parts.next(); !next.done; next = await parts.next()) {
        const part = next.value;
        if (part.type === 'text-delta' && part.delta)
          yield ctx.event({ partial: true, message: { role: 'assistant', content: [{ type: 'text', text: part.delta }] } });
        else if (part.type === 'reasoning-delta' && part.delta)
          yield ctx.event({ partial: true, message: { role: 'assistant', content: [{ type: 'reasoning', reasoning: part.delta }] } });
      }
      return next.value;
    } finally {
      if (next && !next.done) await parts.return(undefined as never); // our caller stopped early: close the model's stream
    }
  }
  const { signal } = ctx;
  beginModelCall(ctx, signal);
  let response: ModelResponse;
  try {
    response = await model.generate(request, { signal });
  } catch (error) {
    throw modelCallFailure(ctx, signal, error);
  }
  return endModelCall(ctx, model, response);
}

function beginModelCall(ctx: InvocationContext, signal: AbortSignal): void {
  if (signal.aborted) throw abortErrorOf(signal);
  ctx.services.budget.beforeModelCall();
}

function modelCallFailure(ctx: InvocationContext, signal: AbortSignal, error: unknown): Error {
  return signal.aborted ? abortErrorOf(signal) : new ModelCallError(ctx.agent.name, error);
}

function endModelCall(ctx: InvocationContext, model: ChatModel, response: ModelResponse): ModelResponse {
  ctx.services.budget.recordUsage(model.id, response.usage);
  return response;
}
