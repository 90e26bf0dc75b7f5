import {
  abortErrorOf,
  ModelCallError,
  type ChatModel,
  type InvocationContext,
  type ModelRequest,
  type ModelResponse,
  type ModelStreamPart,
} from '@replan/core';

/**
 * Calls a model as a stream whatever the run asked for, handing every part to the caller as it
 * arrives (the streaming planner reads the `plan` call's arguments while they are written). Keeps
 * core's `callModel` rules: checks the run budget first, records usage at the end, turns a failure
 * into `ModelCallError`, or into the abort's error when `signal` (default: the run's) is aborted.
 * Returns the whole response (the `finish` part's).
 */
export async function* streamModelCall(
  ctx: InvocationContext,
  model: ChatModel,
  request: ModelRequest,
  signal: AbortSignal = ctx.signal,
): AsyncGenerator<ModelStreamPart, ModelResponse, undefined> {
  if (signal.aborted) throw abortErrorOf(signal);
  const { budget, observation } = ctx.services;
  budget.beforeModelCall(model.id, request);
  const started = Date.now();
  const observed = observation?.modelCall(ctx, model, request);
  let response: ModelResponse | undefined;
  let failure: unknown;
  const parts = model.stream(request, { signal })[Symbol.asyncIterator]();
  try {
    for (;;) {
      let next: IteratorResult<ModelStreamPart>;
      try {
        next = await parts.next();
      } catch (error) {
        failure = signal.aborted ? abortErrorOf(signal) : new ModelCallError(ctx.agent.name, error);
        throw failure;
      }
      if (next.done) break;
      if (next.value.type === 'finish') response = next.value.response;
      else yield next.value;
    }
  } finally {
    if (!response) {
      observed?.({
        error: failure ?? new Error(`model "${model.id}" ended its stream without a finish part, or the caller stopped reading it`),
      });
      await parts.return?.().catch(() => undefined);
    }
  }
  if (!response) throw new ModelCallError(ctx.agent.name, new Error(`model "${model.id}" ended its stream without a finish part`));
  budget.recordUsage(model.id, response.usage, { path: ctx.path, stepId: ctx.stepId, latencyMs: Date.now() - started });
  observed?.({ response });
  return response;
}
