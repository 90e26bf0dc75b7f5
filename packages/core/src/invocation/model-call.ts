import type { AgentEvent } from '../events/agent-event.js';
import { ModelCallError } from '../errors/run-errors.js';
import { ReplayError } from '../errors/replay-errors.js';
import type { ChatModel, ModelCallAgent, ModelRequest, ModelResponse, ModelStreamPart } from '../models/chat-model.js';
import { abortErrorOf, raceAbort } from '../errors/abort.js';
import type { InvocationContext } from './invocation-context.js';
import type { RunBudget } from './run-limits.js';
import { describeRequest } from '../models/request-fingerprint.js';
import { noteModelResponse } from './response-record.js';
import { requestWithBlobBytes } from './request-blobs.js';
import { withWireSafeToolIds } from './wire-tool-ids.js';

/**
 * The one streaming model call every agent builds on. It keeps the rules of a model call in one
 * place: the run's budget is checked before the call, usage is recorded (by agent path and plan
 * step) once the `finish` part arrives, observers hear the call's start and end, a failure becomes
 * `ModelCallError` (or the abort's error when `signal` — default: the run's — fired), and a stream
 * that ends without a `finish` part is a `ModelCallError`.
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
  const begun = beginModelCall(ctx, model, request, signal);
  const call = begun instanceof Promise ? await begun : begun; // no extra turn unless it waited: parallel calls keep their order
  const sent = await blobBytes(ctx, call.request, call);
  let response: ModelResponse | undefined;
  let failure: Error | undefined;
  let ended = false;
  let parts: AsyncIterator<ModelStreamPart> | undefined;
  try {
    for (;;) {
      let next: IteratorResult<ModelStreamPart>;
      // Only the model's own failures are mapped: an error thrown into this generator at `yield` is the caller's.
      try {
        parts ??= model.stream(sent, { signal, agent: callingAgent(ctx) })[Symbol.asyncIterator]();
        // A model that ignores its signal cannot hold the run: the abort ends the wait.
        next = await raceAbort(parts.next(), signal);
      } catch (error) {
        failure = call.failed(error);
        throw failure;
      }
      if (next.done) {
        ended = true;
        break;
      }
      if (next.value.type === 'finish') response = next.value.response;
      else yield next.value;
    }
  } finally {
    if (!failure && !ended) {
      // Our caller stopped early: after the finish part the call still happened (its usage counts).
      if (response) call.succeeded(response);
      else call.stopped();
    }
    if (!ended) {
      // Close the model's stream unless it ended; a stream stuck in `next()` after an abort is not waited for.
      const closed = Promise.resolve(parts?.return?.()).catch(() => undefined);
      if (!signal.aborted) await closed;
    }
  }
  if (!response) throw call.failed(new Error(`model "${model.id}" ended its stream without a finish part`));
  return call.succeeded(response);
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
  if (!ctx.streaming) return await generateModelCall(ctx, model, request);
  const parts = streamModelCall(ctx, model, request);
  let next: IteratorResult<ModelStreamPart, ModelResponse> | undefined;
  try {
    for (next = await parts.next(); !next.done; next = await parts.next()) {
      const partial = partialEventOf(ctx, next.value);
      if (partial) yield partial;
    }
    return next.value;
  } finally {
    if (next && !next.done) await parts.return(undefined as never); // our caller stopped early: close the model's stream
  }
}

/**
 * `callModel` as a promise, its partial events (when the caller streams) handed to `push`: the
 * innermost step of a `ReActAgent`'s middleware onion.
 */
export async function modelCallTo(
  ctx: InvocationContext,
  model: ChatModel,
  request: ModelRequest,
  push: (event: AgentEvent) => void,
): Promise<ModelResponse> {
  if (!ctx.streaming) return generateModelCall(ctx, model, request);
  const parts = streamModelCall(ctx, model, request);
  let next = await parts.next();
  for (; !next.done; next = await parts.next()) {
    const partial = partialEventOf(ctx, next.value);
    if (partial) push(partial);
  }
  return next.value;
}

/** A text or reasoning delta as a partial event (shown, never stored). */
function partialEventOf(ctx: InvocationContext, part: ModelStreamPart): AgentEvent | undefined {
  if (part.type === 'text-delta' && part.delta)
    return ctx.event({ partial: true, message: { role: 'assistant', content: [{ type: 'text', text: part.delta }] } });
  if (part.type === 'reasoning-delta' && part.delta)
    return ctx.event({ partial: true, message: { role: 'assistant', content: [{ type: 'reasoning', reasoning: part.delta }] } });
  return undefined;
}

/** One `generate` call with `streamModelCall`'s rules (budget, usage, observers, error mapping, abort). */
export async function generateModelCall(ctx: InvocationContext, model: ChatModel, request: ModelRequest): Promise<ModelResponse> {
  const begun = beginModelCall(ctx, model, request, ctx.signal);
  const call = begun instanceof Promise ? await begun : begun;
  const sent = await blobBytes(ctx, call.request, call);
  let response: ModelResponse;
  try {
    response = await raceAbort(
      Promise.resolve().then(() => model.generate(sent, { signal: ctx.signal, agent: callingAgent(ctx) })),
      ctx.signal,
    );
  } catch (error) {
    throw call.failed(error);
  }
  return call.succeeded(response);
}

/**
 * The request as it is sent: with its blobs' bytes (see `requestWithBlobBytes`) and wire-safe
 * tool-call ids (see `withWireSafeToolIds`; budgets, observers and the replay fingerprint see the
 * stored ids). A blob that cannot be read ends
 * the call (observers hear it failed) with the store's own error — a missing one is a
 * `SessionCorruptError` naming it — not a `ModelCallError`: no model was asked.
 */
async function blobBytes(ctx: InvocationContext, request: ModelRequest, call: { failed(error: unknown): Error }): Promise<ModelRequest> {
  try {
    return withWireSafeToolIds(await requestWithBlobBytes(ctx.services, request), ctx.services);
  } catch (error) {
    call.failed(error);
    throw error;
  }
}

/**
 * The request the budget lets through (`beforeModelCall`). A call refused only for what parallel
 * calls in flight may still spend waits for one of them to end, then asks again.
 */
function admitted(budget: RunBudget, modelId: string, asked: ModelRequest, signal: AbortSignal): ModelRequest | Promise<ModelRequest> {
  try {
    return budget.beforeModelCall(modelId, asked) ?? asked;
  } catch (error) {
    const room = budget.whenRoom(error);
    if (!room) throw error;
    return raceAbort(room, signal).then(() => admitted(budget, modelId, asked, signal));
  }
}

/** The calling agent's identity, as `ModelCallOptions.agent` carries it to the model. */
function callingAgent(ctx: InvocationContext): ModelCallAgent {
  const run = { sessionId: ctx.session.id, invocationId: ctx.invocationId };
  if (ctx.label === undefined) return { name: ctx.agent.name, path: ctx.path, run };
  return { name: ctx.agent.name, path: ctx.path, label: ctx.label, run };
}

/**
 * One model call's bookkeeping: budget first, then exactly one ending reported (success, failure or
 * stop). `request` is what is sent: the budget may cap its output; observers and the stored record
 * see it as sent (a replay under the same limits sends the same).
 */
function beginModelCall(
  ctx: InvocationContext,
  model: ChatModel,
  asked: ModelRequest,
  signal: AbortSignal,
): ModelCall | Promise<ModelCall> {
  if (signal.aborted) throw abortErrorOf(signal);
  const request = admitted(ctx.services.budget, model.id, asked, signal);
  return request instanceof Promise
    ? request.then((r) => startModelCall(ctx, model, r, signal))
    : startModelCall(ctx, model, request, signal);
}

type ModelCall = ReturnType<typeof startModelCall>;

/** The call's bookkeeping once the budget let `request` through. */
function startModelCall(ctx: InvocationContext, model: ChatModel, request: ModelRequest, signal: AbortSignal) {
  const { budget, observation } = ctx.services;
  const call = budget.modelCalls; // this call's number in the run: a replay answers parallel agents in this order
  const started = Date.now();
  let observed: ReturnType<NonNullable<typeof observation>['modelCall']> | undefined;
  try {
    observed = observation?.modelCall(ctx, model, request);
  } catch (error) {
    budget.afterModelCall(request); // not made: what it held is free
    throw error;
  }
  return {
    request,
    failed(error: unknown): Error {
      budget.afterModelCall(request);
      // A replay that no longer matches its recording is reported as itself, not as a model failure.
      const failure = signal.aborted
        ? abortErrorOf(signal)
        : error instanceof ReplayError
          ? error
          : new ModelCallError(ctx.agent.name, error);
      observed?.(undefined, failure);
      return failure;
    },
    stopped(): void {
      budget.afterModelCall(request);
      observed?.(undefined, new Error(`the caller stopped reading model "${model.id}"'s stream`));
    },
    succeeded(response: ModelResponse): ModelResponse {
      budget.afterModelCall(request);
      // A model that handed the request on (a fallback) names the model that answered: its usage is that model's.
      budget.recordUsage(response.model?.id ?? model.id, response.usage, {
        path: ctx.path,
        label: ctx.label?.id,
        latencyMs: Date.now() - started,
        ...(ctx.agent.operation === 'plan' ? { plan: true } : {}),
      });
      // The event storing this response gets meta.model and meta.request (ctx.event).
      const memo = ctx.modelCalls;
      noteModelResponse(memo, response, model, describeRequest(request, memo.chain, call));
      observed?.(response);
      return response;
    },
  };
}
