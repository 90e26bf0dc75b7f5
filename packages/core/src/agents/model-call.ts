import type { AgentEvent } from '../events/agent-event.js';
import { ModelCallError } from '../errors/run-errors.js';
import type { ChatModel, ModelRequest, ModelResponse } from '../models/chat-model.js';
import { abortErrorOf } from './abort.js';
import type { InvocationContext } from './invocation-context.js';

/**
 * Calls a model for an agent: checks the run budget, streams partial events when the caller asked
 * for streaming, records usage, and turns failures into `ModelCallError` (or the abort's error).
 * Yields partial events; returns the whole response.
 */
export async function* callModel(
  ctx: InvocationContext,
  model: ChatModel,
  request: ModelRequest,
): AsyncGenerator<AgentEvent, ModelResponse, undefined> {
  const { signal, budget, observation } = ctx.services;
  if (signal.aborted) throw abortErrorOf(signal);
  budget.beforeModelCall(model.id, request);
  const started = Date.now();
  const observed = observation?.modelCall(ctx, model, request);
  let response: ModelResponse | undefined;
  try {
    if (ctx.streaming) {
      for await (const part of model.stream(request, { signal })) {
        if (part.type === 'text-delta' && part.delta)
          yield ctx.event({ partial: true, message: { role: 'assistant', content: [{ type: 'text', text: part.delta }] } });
        else if (part.type === 'reasoning-delta' && part.delta)
          yield ctx.event({
            partial: true,
            message: { role: 'assistant', content: [{ type: 'reasoning', reasoning: part.delta }] },
          });
        else if (part.type === 'finish') response = part.response;
      }
      if (!response) throw new Error(`model "${model.id}" ended its stream without a finish part`);
    } else {
      response = await model.generate(request, { signal });
    }
  } catch (error) {
    const failure = signal.aborted ? abortErrorOf(signal) : new ModelCallError(ctx.agent.name, error);
    observed?.({ error: failure });
    throw failure;
  }
  budget.recordUsage(model.id, response.usage, { path: ctx.path, stepId: ctx.stepId, latencyMs: Date.now() - started });
  observed?.({ response });
  return response;
}
