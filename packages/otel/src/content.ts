import type { MediaBlock, Message, ModelRequest } from '@replan/core';
import { mediaByteLength, toolResultContent } from '@replan/core/agent-kit';

/**
 * An image or file as a part: its modality, media type and size — never its bytes (inline data
 * and `data:` URLs are left out; an `http(s)` URL is kept as the part's `uri`).
 */
function mediaPart(block: MediaBlock): Record<string, unknown> {
  const size = mediaByteLength(block);
  return {
    type: block.url !== undefined && !block.url.startsWith('data:') ? 'uri' : 'blob',
    modality: block.type === 'image' ? 'image' : 'file',
    mime_type: block.mediaType,
    ...(size !== undefined ? { size } : {}),
    ...(block.url !== undefined && !block.url.startsWith('data:') ? { uri: block.url } : {}),
    ...(block.blob !== undefined ? { blob: block.blob } : {}),
    ...(block.type === 'file' && block.filename !== undefined ? { filename: block.filename } : {}),
  };
}

/** A tool's output as the response of its part: content blocks with their images and files as `mediaPart`s. */
function toolResponse(output: unknown): unknown {
  const content = toolResultContent(output);
  return content ? content.map((b) => (b.type === 'text' ? { type: 'text', content: b.text } : mediaPart(b))) : output;
}

/** A message in the conventions' shape: role and parts (text, reasoning, tool calls, tool results, media). */
function toConventionMessage(message: Message): Record<string, unknown> {
  const parts = message.content.map((block) => {
    switch (block.type) {
      case 'text':
        return { type: 'text', content: block.text };
      case 'reasoning':
        return { type: 'reasoning', content: block.reasoning };
      case 'tool_call':
        return { type: 'tool_call', id: block.id, name: block.name, arguments: block.args };
      case 'tool_result':
        return { type: 'tool_call_response', id: block.toolCallId, response: toolResponse(block.output) };
      default:
        return mediaPart(block);
    }
  });
  return { role: message.role, parts };
}

/** `gen_ai.input.messages` of a request (system messages included). */
export const inputMessages = (request: ModelRequest): string => JSON.stringify(request.messages.map(toConventionMessage));

/** `gen_ai.output.messages` of a response. */
export const outputMessages = (message: Message, finishReason: string): string =>
  JSON.stringify([{ ...toConventionMessage(message), finish_reason: finishReason }]);

/** A tool's arguments or result as an attribute value (images and files in a result as sizes and media types). */
export const contentValue = (value: unknown): string => (typeof value === 'string' ? value : JSON.stringify(toolResponse(value) ?? null));
