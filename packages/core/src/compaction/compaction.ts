import { modelErrorOf } from '../errors/model-error.js';
import type { ChatModel, ModelRequest, ModelResponse } from '../models/chat-model.js';
import type { Middleware, MiddlewareContext } from '../middleware/middleware.js';
import { type CompactionOptions, type ResolvedCompaction, resolveCompaction } from './compaction-options.js';
import { TurnCompactor } from './turn-compactor.js';

/**
 * Keeps a long turn inside the model's window, as middleware: `middleware: [compaction({ ... })]`.
 * Past `triggerRatio × maxInputTokens` (estimated before each call) the older part of this run's
 * turn is replaced by a quoted summary, recorded as an `actions.compaction` event that a resumed
 * or replayed run reads back instead of summarising again; a `ModelError` of kind
 * `context_length` compacts and retries once. List `offloadToolResults()` before it, so it
 * measures and summarises what the model is shown.
 */
export function compaction(options: CompactionOptions = {}): Middleware {
  // The numbers are checked now (a window stands in until the agent's model is known); a missing window at the first call.
  const standIn = { id: 'the agent model', contextWindow: options.maxInputTokens ?? Number.MAX_SAFE_INTEGER } as ChatModel;
  resolveCompaction('compaction()', options, standIn, false);
  const runs = new WeakMap<MiddlewareContext, TurnCompactor>();
  const resolved = new WeakMap<ChatModel, ResolvedCompaction>();
  const resolve = (ctx: MiddlewareContext): ResolvedCompaction => {
    let r = resolved.get(ctx.model);
    if (!r) {
      r = resolveCompaction(ctx.agentName, options, ctx.model);
      resolved.set(ctx.model, r);
    }
    return r;
  };
  return {
    name: 'compaction',
    async wrapModelCall(next, request, ctx) {
      let compactor = runs.get(ctx);
      if (compactor) compactor.update(request.messages);
      else {
        compactor = new TurnCompactor(
          ctx.agentName,
          resolve(ctx),
          request.messages,
          ctx.invocation.ownEvents(),
          ctx.recorded('compaction'),
        );
        runs.set(ctx, compactor);
      }
      const build = (messages: readonly ModelRequest['messages'][number][]): ModelRequest => ({ ...request, messages });
      let sent = (await compactor.prepare(ctx, build)) as ModelRequest;
      let response: ModelResponse;
      try {
        response = await next(sent);
      } catch (error) {
        if (modelErrorOf(error)?.kind !== 'context_length') throw error;
        const smaller = await compactor.prepare(ctx, build, true);
        if (!smaller) throw error; // nothing left to summarise: the overflow stands
        sent = smaller;
        response = await next(sent);
      }
      compactor.calibrate(sent, response.usage);
      return response;
    },
  };
}
