import type { InvocationContext, PromptCache, PromptCacheOptions } from '@replan/core';
import { requestCache } from '@replan/core/agent-kit';

/**
 * Prompt caching of a plan–execute part. On by default: every request of the part carries
 * `ModelRequest.cache` with one key per session and role (the part's name: planner, executor,
 * replanner), so the calls of a role — the iterations of a step, parallel graph steps, the
 * replanner's turns — share one cached prefix. `false` sends no cache hint.
 */
export type PartPromptCache = PromptCacheOptions | false;

/** The `cache` field of one request of the part named `role`, spread into the request. */
export function partCache(option: PartPromptCache | undefined, ctx: InvocationContext, role: string): { cache?: PromptCache } {
  const cache = option === false ? undefined : requestCache(option ?? {}, ctx, role);
  return cache ? { cache } : {};
}
