import {
  ConfigurationError,
  messageText,
  toolCallsOf,
  type AgentEvent,
  type ChatModel,
  type Middleware,
  type MiddlewareContext,
  type ModelRequest,
  type ModelResponse,
} from '@replan/core';
import { streamModelCall } from '@replan/core/agent-kit';
import { MemoryError } from '../memory-error.js';
import type { MemoryScope, MemoryStore } from '../memory-store.js';
import { type MemoryScopeOption, runScope, scopeOption } from './memory-scope.js';
import { CONSOLIDATION_INSTRUCTION, consolidationRequest, factsOf } from './consolidation-prompt.js';
import { inPlanExecuteLoop } from './plan-execute-path.js';

/** The options of `consolidate`. */
export interface ConsolidateOptions {
  /** The model that extracts facts (a cheap one does). */
  readonly model: ChatModel;
  readonly store: MemoryStore;
  /** `'user'` (default): facts go to the run's user's memories; `'app'`: to the app's shared ones. */
  readonly scope?: MemoryScopeOption;
  /** Replaces the default instruction (`CONSOLIDATION_INSTRUCTION`). */
  readonly instruction?: string;
  /** Most facts kept per run (default 10). */
  readonly maxFacts?: number;
}

/** The name its events carry (`meta.middleware`). */
export const CONSOLIDATE_MIDDLEWARE = 'consolidate';

/** What a consolidation recorded (`event.meta.memory`). */
interface ConsolidationRecord {
  readonly facts: readonly string[];
  /** Why no facts were extracted or stored (the model failed, or its answer was unusable; the store was down). */
  readonly failed?: string;
}

/**
 * Middleware that, when its agent answers (a model answer without tool calls, or plan–execute's
 * `respond`; given to every plan–execute role, it runs once, on the replanner's answer), makes one call to `model` that extracts the facts worth keeping from the
 * conversation (structured output `{ facts }`) and stores each as a `fact` memory whose source is
 * the session, the invocation and the event that recorded the extraction. The extraction is
 * recorded before anything is stored: a run resumed after a crash reads it back (no second call)
 * and stores only the facts not yet stored (none twice). A model or store that fails: the answer
 * stands, the recorded event says what failed (`meta.memory.failed`); an abort stops it as usual.
 */
export function consolidate(options: ConsolidateOptions): Middleware {
  const who = 'consolidate';
  if (!options || typeof options.model?.stream !== 'function' || typeof options.store?.put !== 'function')
    throw new ConfigurationError(`${who}: pass { model, store }: the model that extracts facts and the MemoryStore they go to.`);
  const scope = scopeOption(who, options.scope);
  const maxFacts = options.maxFacts ?? 10;
  if (!Number.isInteger(maxFacts) || maxFacts < 1)
    throw new ConfigurationError(`${who}: maxFacts must be a positive integer, got ${String(maxFacts)}.`);
  const instruction = options.instruction ?? CONSOLIDATION_INSTRUCTION;
  return {
    name: CONSOLIDATE_MIDDLEWARE,
    async wrapModelCall(next, request, ctx) {
      const response = await next(request);
      if (!answers(response, ctx)) return response;
      const where = runScope({ appName: ctx.invocation.session.appName, userId: ctx.userId }, scope);
      const done = ctx.recorded(CONSOLIDATE_MIDDLEWARE).find((e) => (e.meta?.memory as ConsolidationRecord | undefined)?.facts);
      const event =
        done ??
        (await extract(ctx, options.model, consolidationRequest(instruction, [...request.messages, response.message], maxFacts), maxFacts));
      await storeFacts(options.store, where, ctx, event);
      return response;
    },
  };
}

/**
 * The run's answer: plan–execute's `respond`, or a model answer without tool calls — except inside
 * a plan–execute loop, where that is a step's result (the executor's), not the run's answer.
 */
function answers(response: ModelResponse, ctx: MiddlewareContext): boolean {
  const calls = toolCallsOf(response.message);
  if (calls.length === 1 && calls[0]?.name === 'respond') return true;
  return calls.length === 0 && !inPlanExecuteLoop(ctx.path);
}

/** The one extraction call, recorded (with its usage) whatever it returned. */
async function extract(ctx: MiddlewareContext, model: ChatModel, request: ModelRequest, maxFacts: number): Promise<AgentEvent> {
  let response: ModelResponse | undefined;
  let failed: string | undefined;
  try {
    const call = streamModelCall(ctx.invocation, model, request);
    let next = await call.next();
    while (!next.done) next = await call.next();
    response = next.value;
  } catch (error) {
    if (ctx.signal.aborted) throw error; // an abort or a budget stop ends the run as usual
    failed = `the model failed: ${(error as Error)?.message ?? String(error)}`;
  }
  const parsed = response ? factsOf(messageText(response.message), maxFacts) : undefined;
  if (parsed && 'problem' in parsed) failed = parsed.problem;
  const record: ConsolidationRecord = { facts: parsed && 'facts' in parsed ? parsed.facts : [], ...(failed ? { failed } : {}) };
  return ctx.record({ ...(response?.usage ? { usage: response.usage } : {}), meta: { kind: 'memory-consolidation', memory: record } });
}

/** Stores the recorded facts not yet in the scope (the same text is not stored twice); a store that is down is recorded. */
async function storeFacts(store: MemoryStore, scope: MemoryScope, ctx: MiddlewareContext, event: AgentEvent): Promise<void> {
  const facts = (event.meta?.memory as ConsolidationRecord | undefined)?.facts ?? [];
  try {
    for (const text of facts) {
      const hits = await store.search({ scope, query: text, k: 10, kinds: ['fact'] });
      // Stored already: by this extraction before a crash, or the same fact by an earlier session.
      if (hits.some((h) => h.item.text === text)) continue;
      await store.put({
        scope,
        kind: 'fact',
        text,
        source: { sessionId: ctx.sessionId, invocationId: ctx.invocationId, eventId: event.id },
      });
    }
  } catch (error) {
    if (error instanceof MemoryError && error.kind === 'invalid') throw error;
    if (ctx.signal.aborted) throw error;
    ctx.record({
      meta: { kind: 'memory-consolidation', memory: { facts: [], failed: `storing the facts failed: ${(error as Error).message}` } },
    });
  }
}
