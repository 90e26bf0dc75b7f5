import type { LanguageModelV3FinishReason, LanguageModelV3Usage } from '@ai-sdk/provider';
import type { Usage } from '@replan/core';
import type { FinishReason } from '@replan/core/agent-kit';

/**
 * The AI SDK's unified finish reason as replan's: a raw `refusal` (Anthropic) is `refusal`, a
 * stop with tool calls is `tool_calls` (some servers say `stop`), `other` is `stop`. `error` is
 * `undefined`: the caller fails the call.
 */
export function finishReasonOf(reason: LanguageModelV3FinishReason | undefined, hasToolCalls: boolean): FinishReason | undefined {
  if (reason?.raw === 'refusal') return 'refusal';
  switch (reason?.unified) {
    case 'length':
      return 'length';
    case 'content-filter':
      return 'content_filter';
    case 'error':
      return undefined;
    case 'tool-calls':
      return 'tool_calls';
    default:
      return hasToolCalls ? 'tool_calls' : 'stop';
  }
}

/** Token counts: totals, reasoning tokens, cache reads and cache writes (parts of the input), when the provider reported them. */
export function usageOf(usage: LanguageModelV3Usage | undefined): Usage | undefined {
  if (!usage || (usage.inputTokens.total === undefined && usage.outputTokens.total === undefined)) return undefined;
  return {
    inputTokens: usage.inputTokens.total ?? 0,
    outputTokens: usage.outputTokens.total ?? 0,
    ...(usage.outputTokens.reasoning !== undefined ? { reasoningTokens: usage.outputTokens.reasoning } : {}),
    ...(usage.inputTokens.cacheRead !== undefined ? { cachedTokens: usage.inputTokens.cacheRead } : {}),
    ...(usage.inputTokens.cacheWrite !== undefined ? { cacheWriteTokens: usage.inputTokens.cacheWrite } : {}),
  };
}
