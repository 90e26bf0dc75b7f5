import type {
  LanguageModelV3CallOptions,
  LanguageModelV3Content,
  LanguageModelV3GenerateResult,
  LanguageModelV3StreamPart,
} from '@ai-sdk/provider';
import { convertArrayToReadableStream } from 'ai/test';

export const usage = (input: number, output: number, extra: { reasoning?: number; cacheRead?: number } = {}) => ({
  inputTokens: { total: input, noCache: undefined, cacheRead: extra.cacheRead, cacheWrite: undefined },
  outputTokens: { total: output, text: undefined, reasoning: extra.reasoning },
});

/** A `doGenerate` result with this content. */
export function generated(
  content: LanguageModelV3Content[],
  extra: { reasoning?: number; cacheRead?: number } = {},
): LanguageModelV3GenerateResult {
  const tools = content.some((c) => c.type === 'tool-call');
  return {
    content,
    finishReason: { unified: tools ? 'tool-calls' : 'stop', raw: tools ? 'tool_use' : 'end_turn' },
    usage: usage(10, 5, extra),
    warnings: [],
  };
}

/** The same content as the parts of a `doStream` result: text and reasoning in two deltas each, tool input streamed. */
export function streamedParts(result: LanguageModelV3GenerateResult): LanguageModelV3StreamPart[] {
  const parts: LanguageModelV3StreamPart[] = [{ type: 'stream-start', warnings: [] }];
  result.content.forEach((c, i) => {
    const id = String(i);
    if (c.type === 'text') {
      const half = Math.ceil(c.text.length / 2);
      parts.push(
        { type: 'text-start', id },
        { type: 'text-delta', id, delta: c.text.slice(0, half) },
        { type: 'text-delta', id, delta: c.text.slice(half) },
        { type: 'text-end', id },
      );
    } else if (c.type === 'reasoning') {
      // As Anthropic streams it: the text first, the signature last, in the metadata of an empty delta.
      parts.push({ type: 'reasoning-start', id }, { type: 'reasoning-delta', id, delta: c.text });
      if (c.providerMetadata) parts.push({ type: 'reasoning-delta', id, delta: '', providerMetadata: c.providerMetadata });
      parts.push({ type: 'reasoning-end', id });
    } else if (c.type === 'tool-call') {
      parts.push(
        { type: 'tool-input-start', id: c.toolCallId, toolName: c.toolName },
        { type: 'tool-input-delta', id: c.toolCallId, delta: c.input },
        { type: 'tool-input-end', id: c.toolCallId },
        c,
      );
    } else parts.push(c as LanguageModelV3StreamPart);
  });
  parts.push({ type: 'finish', finishReason: result.finishReason, usage: result.usage });
  return parts;
}

/** A `doStream` result of these parts. */
export const streamOf = (parts: LanguageModelV3StreamPart[]) => ({ stream: convertArrayToReadableStream(parts) });

export const toolNames = (options: LanguageModelV3CallOptions): string[] => (options.tools ?? []).map((t) => t.name);
