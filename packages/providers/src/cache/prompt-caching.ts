import type { PromptCache } from '@replan/core/agent-kit';

import type { ProviderProfileName } from '../profiles/provider-profile.js';
import { isRecord, type Json } from '../reasoning/json.js';

/**
 * How `ModelRequest.cache` goes on the wire:
 * - `key`: `prompt_cache_key` and `prompt_cache_retention` (OpenAI; servers that route by key);
 * - `breakpoints`: `cache_control` on the system message, the last tool and the last user message
 *   (Anthropic models, through LiteLLM or OpenRouter, which cache only up to a marked block);
 * - `none`: nothing (the server caches by itself, or would refuse fields it does not know).
 */
export type PromptCaching = 'key' | 'breakpoints' | 'none';

export const PROMPT_CACHING: readonly PromptCaching[] = ['key', 'breakpoints', 'none'];

/**
 * The default for a profile: `key` on OpenAI, `breakpoints` for Claude behind LiteLLM (`anthropic`)
 * or OpenRouter, `none` elsewhere — DeepSeek and Gemini cache by themselves, Google's endpoint
 * refuses unknown fields, and an unknown server may too (opt in with the model's `promptCaching`).
 */
export function defaultPromptCaching(profile: ProviderProfileName, model: string): PromptCaching {
  switch (profile) {
    case 'openai':
      return 'key';
    case 'anthropic':
      return 'breakpoints';
    case 'openrouter':
      return /claude|anthropic/i.test(model) ? 'breakpoints' : 'none';
    default:
      return 'none';
  }
}

/** OpenAI's names for the two retentions. */
export const openAIRetention = (retention: PromptCache['retention']): string | undefined =>
  retention === 'long' ? '24h' : retention === 'short' ? 'in-memory' : undefined;

/** `prompt_cache_key` / `prompt_cache_retention` for a request's `cache` (Chat Completions and Responses). */
export function cacheKeyFields(cache: PromptCache | undefined): Json {
  if (!cache) return {};
  const retention = openAIRetention(cache.retention);
  return { ...(cache.key ? { prompt_cache_key: cache.key } : {}), ...(retention ? { prompt_cache_retention: retention } : {}) };
}

/**
 * Marks the Chat Completions body's cache breakpoints (three of Anthropic's four): the last tool,
 * the last leading system message and the last user message (their text as a content part with
 * `cache_control`). Anthropic caches tools, then system, then messages, each breakpoint covering
 * everything before it: the tools survive a changed system text, and the last user message — a
 * plan step's task after the objective — is read back by every later call of the same turn.
 * Tool results are never marked (some proxies refuse parts in tool messages).
 */
export function markChatBreakpoints(body: Json, cache: PromptCache): void {
  const control: Json = { type: 'ephemeral', ...(cache.retention === 'long' ? { ttl: '1h' } : {}) };
  const messages = Array.isArray(body.messages) ? (body.messages as Json[]) : [];
  let system = -1;
  while (messages[system + 1]?.role === 'system') system++;
  const user = messages.findLastIndex((m) => m.role === 'user');
  for (const i of [system, user]) {
    const message = messages[i];
    if (message) messages[i] = { ...message, content: markedContent(message.content, control) };
  }
  const tools = Array.isArray(body.tools) ? (body.tools as Json[]) : [];
  const last = tools.length - 1;
  if (last >= 0) tools[last] = { ...(tools[last] as Json), cache_control: control };
}

/** Content with `cache_control` on its last part (a string becomes one text part). */
function markedContent(content: unknown, control: Json): unknown {
  if (typeof content === 'string') return content ? [{ type: 'text', text: content, cache_control: control }] : content;
  if (!Array.isArray(content) || !content.length) return content;
  const parts = [...content];
  const last = parts[parts.length - 1];
  if (isRecord(last)) parts[parts.length - 1] = { ...last, cache_control: control };
  return parts;
}

const count = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

/**
 * Input tokens written to the cache, where a server reports them: OpenRouter's
 * `prompt_tokens_details.cache_write_tokens`, LiteLLM's `cache_creation_input_tokens` (Anthropic)
 * or `prompt_tokens_details.cache_creation_tokens`.
 */
export function cacheWriteTokensOf(usage: Json, details: Json): number | undefined {
  return count(details.cache_write_tokens) ?? count(details.cache_creation_tokens) ?? count(usage.cache_creation_input_tokens);
}
