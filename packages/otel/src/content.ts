import type { Message, ModelRequest } from '@replan/core';

/** A message in the conventions' shape: role and parts (text, reasoning, tool calls, tool results). */
function toConventionMessage(message: Message): Record<string, unknown> {
  const parts = message.content.map((block) => {
    switch (block.type) {
      case 'text':
        return { type: 'text', content: block.text };
      case 'reasoning':
        return { type: 'reasoning', content: block.reasoning };
      case 'tool_call':
        return { type: 'tool_call', id: block.id, name: block.name, arguments: block.args };
      default:
        return { type: 'tool_call_response', id: block.toolCallId, response: block.output };
    }
  });
  return { role: message.role, parts };
}

/** `gen_ai.input.messages` of a request (system messages included). */
export const inputMessages = (request: ModelRequest): string => JSON.stringify(request.messages.map(toConventionMessage));

/** `gen_ai.output.messages` of a response. */
export const outputMessages = (message: Message, finishReason: string): string =>
  JSON.stringify([{ ...toConventionMessage(message), finish_reason: finishReason }]);

/** A tool's arguments or result as an attribute value. */
export const contentValue = (value: unknown): string => (typeof value === 'string' ? value : JSON.stringify(value ?? null));
