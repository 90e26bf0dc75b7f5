import type { AgentEvent } from '../events/agent-event.js';
import type { InvocationContext } from '../invocation/invocation-context.js';
import { AsyncQueue } from '../invocation/async-queue.js';
import { callModel, modelCallTo } from '../invocation/model-call.js';
import type { ChatModel, ModelRequest, ModelResponse } from '../models/chat-model.js';
import { type ModelCallChain, modelCallChain } from './compose.js';
import type { Middleware } from './middleware.js';
import { MiddlewareRun } from './middleware-run.js';

/**
 * One model call through a middleware onion. What the middleware record and the model's partial
 * events (when streaming) are yielded as they come, so they are stored in order while the call
 * runs; returns the response.
 */
export async function* modelTurnThrough(
  ctx: InvocationContext,
  run: MiddlewareRun,
  chain: ModelCallChain,
  model: ChatModel,
  request: ModelRequest,
): AsyncGenerator<AgentEvent, ModelResponse, undefined> {
  const queue = new AsyncQueue<AgentEvent>();
  run.sink = (event) => queue.push(event);
  run.modelCall ??= chain(run, (r) => modelCallTo(ctx, model, r, run.emit));
  let response: ModelResponse | undefined;
  run.modelCall(request).then(
    (r) => {
      response = r;
      queue.close();
    },
    (error: unknown) => queue.fail(error),
  );
  try {
    for (let event = await queue.next(); event; event = await queue.next()) yield event;
  } finally {
    run.sink = undefined;
  }
  return response as ModelResponse;
}

/**
 * `callModel` through `middleware` (their `prepareRequest` and `wrapModelCall`; `tools` and
 * `wrapToolCall` do not apply): how an agent that is not a ReAct loop — a plan–execute planner or
 * replanner — takes the middleware it is given. State the middleware write is stored as an event
 * of its own after the call.
 */
export async function* callModelThrough(
  middleware: readonly Middleware[],
  ctx: InvocationContext,
  model: ChatModel,
  request: ModelRequest,
): AsyncGenerator<AgentEvent, ModelResponse, undefined> {
  const chain = modelCallChain(middleware);
  if (!chain) return yield* callModel(ctx, model, request);
  const run = new MiddlewareRun(ctx, model, ctx.ownEvents());
  const response = yield* modelTurnThrough(ctx, run, chain, model, request);
  const stateDelta = run.state.take();
  if (stateDelta) yield ctx.event({ actions: { stateDelta }, meta: { kind: 'middleware-state' } });
  return response;
}
