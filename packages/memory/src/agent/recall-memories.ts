import { ConfigurationError, messageText, userMessage, type Middleware, type MiddlewareContext, type ModelRequest } from '@replan/core';
import { MemoryError } from '../memory-error.js';
import type { MemoryKind, MemoryStore } from '../memory-store.js';
import { type MemoryScopeOption, runScope, scopeOption } from './memory-scope.js';
import { memoryBlock, type RecalledMemory, withinBudget } from './memory-lines.js';
import { inPlanExecuteLoop } from './plan-execute-path.js';

/** The options of `recallMemories`. */
export interface RecallMemoriesOptions {
  readonly store: MemoryStore;
  /**
   * Which agents recall: agent names, or plan–execute roles (`'planner'`, `'executor'`,
   * `'replanner'`, matching `research_planner` too). Default: every agent it is given to except a
   * plan–execute executor or replanner — so the planner, or any `ReActAgent` used directly.
   */
  readonly roles?: readonly string[];
  /** Most memories searched for (default 5). */
  readonly k?: number;
  /** Most tokens (≈ 4 characters each) the quoted memories take in the request (default 1000). */
  readonly maxTokens?: number;
  /**
   * Which kinds (default `['fact', 'episode']`: a plan–execute agent's `memory` option shows its
   * planner past plans with their steps and outcomes; a `plan` memory's text alone is only its objective).
   */
  readonly kinds?: readonly MemoryKind[];
  /** `'user'` (default): the run's user's memories; `'app'`: the app's shared ones. */
  readonly scope?: MemoryScopeOption;
}

const DEFAULT_KINDS: readonly MemoryKind[] = ['fact', 'episode'];
const MAX_QUERY_CHARS = 4000;

/** The name its events carry (`meta.middleware`). */
export const RECALL_MIDDLEWARE = 'recall-memories';

/** What one recall recorded (`event.meta.memory`): the memories it put into the request, or why there were none. */
export interface RecallRecord {
  readonly query: string;
  readonly recalled: readonly RecalledMemory[];
  /** Set when memory could not be read (store down, embedder failed): the run went on without it. */
  readonly unavailable?: string;
}

/**
 * Middleware that puts the memories closest to the run's input into the model's request
 * (`middleware: [recallMemories({ store })]`, or a plan–execute agent's `middleware: { planner: [...] }`).
 * It searches once per run of the agent, with this invocation's user input as the query, keeps
 * the best memories that fit `maxTokens`, and adds them as one quoted user message after the
 * system prompt: each with its kind and the session it came from, fenced and escaped as data (a
 * memory saying "ignore previous instructions" stays a quotation). The search is recorded as an
 * event (`meta.memory`), so a resumed run sends the same request without searching again (a
 * replay, a new run, searches again: with the store as it was, it sends the recorded request). A store that is down or an embedder that fails: the run goes on without memory, the
 * event and a line in the request say so; a caller mistake (`MemoryError` of kind `invalid`) is thrown.
 */
export function recallMemories(options: RecallMemoriesOptions): Middleware {
  const who = 'recallMemories';
  if (!options || typeof options.store?.search !== 'function')
    throw new ConfigurationError(`${who}: pass { store }, a MemoryStore (e.g. new InMemoryMemoryStore()).`);
  const scope = scopeOption(who, options.scope);
  const k = positive(who, 'k', options.k ?? 5);
  const maxTokens = positive(who, 'maxTokens', options.maxTokens ?? 1000);
  if (options.roles !== undefined && (!Array.isArray(options.roles) || !options.roles.length))
    throw new ConfigurationError(
      `${who}: roles must be a non-empty list of agent names or plan–execute roles, got ${JSON.stringify(options.roles)}.`,
    );
  const runs = new WeakMap<MiddlewareContext, Promise<RecallRecord>>();
  return {
    name: RECALL_MIDDLEWARE,
    prepareRequest(request, ctx) {
      if (!recalls(options.roles, ctx)) return request;
      let record = runs.get(ctx);
      if (!record) {
        record = recallOnce(options.store, ctx, { scope, k, maxTokens, kinds: options.kinds ?? DEFAULT_KINDS }, request);
        runs.set(ctx, record);
      }
      return record.then((r) => withMemories(request, r));
    },
  };
}

/** The recorded recall of this run, else a search now (recorded). */
async function recallOnce(
  store: MemoryStore,
  ctx: MiddlewareContext,
  o: { scope: MemoryScopeOption; k: number; maxTokens: number; kinds: readonly MemoryKind[] },
  request: ModelRequest,
): Promise<RecallRecord> {
  const done = ctx.recorded(RECALL_MIDDLEWARE).at(-1)?.meta?.memory as RecallRecord | undefined;
  if (done) return done;
  // The input's start is the query: a long input (a pasted document) stays within any store's query limit.
  const query = (inputOf(ctx) || messageText(request.messages.findLast((m) => m.role === 'user'))).slice(0, MAX_QUERY_CHARS);
  let record: RecallRecord;
  try {
    const where = runScope({ appName: ctx.invocation.session.appName, userId: ctx.userId }, o.scope);
    const hits = query.trim() ? await store.search({ scope: where, query, k: o.k, kinds: o.kinds }) : [];
    record = { query, recalled: withinBudget(hits, o.maxTokens) };
  } catch (error) {
    if (error instanceof MemoryError && (error.kind === 'invalid' || error.kind === 'too_large')) throw error;
    record = { query, recalled: [], unavailable: (error as Error)?.message ?? String(error) };
  }
  ctx.record({ meta: { kind: 'memory-recall', memory: record } });
  return record;
}

/** The request with the recalled memories (or the note that memory is unavailable) after its system messages. */
function withMemories(request: ModelRequest, record: RecallRecord): ModelRequest {
  const text = record.unavailable
    ? 'Long-term memory is unavailable for this run (it could not be searched); go on without it.'
    : record.recalled.length
      ? memoryBlock(record.recalled)
      : undefined;
  if (!text) return request;
  const at = request.messages.findIndex((m) => m.role !== 'system');
  const messages = [...request.messages];
  messages.splice(at < 0 ? messages.length : at, 0, userMessage(text));
  return { ...request, messages };
}

/** This invocation's user input: what the run was asked. */
function inputOf(ctx: MiddlewareContext): string {
  return ctx.invocation.events
    .filter((e) => e.author === 'user' && e.invocationId === ctx.invocationId && e.message)
    .map((e) => messageText(e.message))
    .join('\n');
}

/** Whether this agent recalls (see `roles`). */
function recalls(roles: readonly string[] | undefined, ctx: MiddlewareContext): boolean {
  if (roles) return roles.some((r) => ctx.agentName === r || ctx.agentName.endsWith(`_${r}`));
  // By default, not inside a plan–execute agent's execute–replan loop (its executor and replanner).
  return !inPlanExecuteLoop(ctx.path);
}

function positive(who: string, name: string, value: number): number {
  if (!Number.isInteger(value) || value < 1)
    throw new ConfigurationError(`${who}: ${name} must be a positive integer, got ${String(value)}.`);
  return value;
}
