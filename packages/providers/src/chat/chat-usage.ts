import type { Usage } from '@replan/core';
import type { FinishReason } from '@replan/core/agent-kit';
import { isRecord } from '../reasoning/json.js';
import { cacheWriteTokensOf } from '../cache/prompt-caching.js';

const count = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

/**
 * Chat Completions usage: `prompt_tokens`, `completion_tokens`, reasoning tokens from
 * `completion_tokens_details.reasoning_tokens`, cached tokens from
 * `prompt_tokens_details.cached_tokens` (or DeepSeek's `prompt_cache_hit_tokens`), cache writes
 * from `cacheWriteTokensOf` (OpenRouter's and LiteLLM's names).
 */
export function chatUsageOf(raw: unknown): Usage | undefined {
  if (!isRecord(raw)) return undefined;
  const input = count(raw.prompt_tokens);
  const output = count(raw.completion_tokens);
  if (input === undefined && output === undefined) return undefined;
  const completion = isRecord(raw.completion_tokens_details) ? raw.completion_tokens_details : {};
  const prompt = isRecord(raw.prompt_tokens_details) ? raw.prompt_tokens_details : {};
  const reasoning = count(completion.reasoning_tokens);
  const cached = count(prompt.cached_tokens) ?? count(raw.prompt_cache_hit_tokens);
  const written = cacheWriteTokensOf(raw, prompt);
  return {
    inputTokens: input ?? 0,
    outputTokens: output ?? 0,
    ...(reasoning !== undefined ? { reasoningTokens: reasoning } : {}),
    ...(cached !== undefined ? { cachedTokens: cached } : {}),
    ...(written !== undefined ? { cacheWriteTokens: written } : {}),
  };
}

/**
 * Maps a server's finish reason. A stream that ends `stop` with tool calls is `tool_calls`; a
 * refusal is `refusal`; unknown reasons (`eos`, `end_turn`, ...) are `stop` or `tool_calls`.
 */
export function finishReasonOf(raw: unknown, hasToolCalls: boolean, refused: boolean): FinishReason {
  if (refused) return 'refusal';
  switch (raw) {
    case 'length':
    case 'max_tokens':
      return 'length';
    case 'content_filter':
    case 'safety':
      return 'content_filter';
    case 'refusal':
      return 'refusal';
    default:
      return hasToolCalls ? 'tool_calls' : 'stop';
  }
}
