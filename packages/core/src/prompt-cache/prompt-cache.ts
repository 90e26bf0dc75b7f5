import type { PromptCache, PromptCacheRetention } from '../models/chat-model.js';
import { valueDigest } from '../models/value-digest.js';
import type { InvocationContext } from '../invocation/invocation-context.js';
import type { Middleware } from '../middleware/middleware.js';

/**
 * `promptCache()`'s options: each request of the agent carries `ModelRequest.cache` with this key and
 * retention. The default key is one per session and agent (`promptCacheKey`), so the calls of
 * one role in one run — the iterations of a ReAct loop, parallel plan steps — share a cache.
 */
export interface PromptCacheOptions {
  /** The key, or how to make it from the run; default `promptCacheKey(session id, agent name)`. */
  readonly key?: string | ((ctx: InvocationContext) => string | undefined);
  readonly retention?: PromptCacheRetention;
}

// Providers bound the key's length (OpenAI: 64 characters); a longer one is shortened to a digest.
const MAX_KEY = 64;

/** The cache key of one role (an agent's name) in one session: `<role>:<session id>`, at most 64 characters. */
export function promptCacheKey(sessionId: string, role: string): string {
  const key = `${role}:${sessionId}`;
  if (key.length <= MAX_KEY) return key;
  const digest = (valueDigest(key) >>> 0).toString(16).padStart(8, '0');
  return `${role.slice(0, MAX_KEY - digest.length - 1)}:${digest}`;
}

/** The `ModelRequest.cache` of one request of `agent` in `ctx`, or undefined without caching. */
export function requestCache(options: PromptCacheOptions | undefined, ctx: InvocationContext, agent: string): PromptCache | undefined {
  if (!options) return undefined;
  const key = typeof options.key === 'function' ? options.key(ctx) : (options.key ?? promptCacheKey(ctx.session.id, agent));
  return { ...(key ? { key } : {}), ...(options.retention ? { retention: options.retention } : {}) };
}

/**
 * Prompt caching as middleware: every request of the agent carries `ModelRequest.cache` (default
 * key: one per session and agent, so the iterations of a loop and parallel plan steps share one
 * cached prefix). `new ReActAgent({ ..., middleware: [promptCache()] })`.
 */
export function promptCache(options: PromptCacheOptions = {}): Middleware {
  return {
    name: 'promptCache',
    prepareRequest(request, ctx) {
      const cache = requestCache(options, ctx.invocation, ctx.agentName);
      return cache ? { ...request, cache } : request;
    },
  };
}
