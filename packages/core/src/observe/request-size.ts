import type { ModelRequest } from '../models/chat-model.js';

/**
 * Characters a request sends: message text, reasoning, tool calls and results, tool specs and the
 * response schema. Cheap and provider-independent; what budgets and observers estimate from.
 */
export function requestChars(request: ModelRequest): number {
  let chars = 0;
  for (const message of request.messages)
    for (const block of message.content) {
      if (block.type === 'text') chars += block.text.length;
      else if (block.type === 'reasoning') chars += block.reasoning.length;
      else if (block.type === 'tool_call') chars += block.name.length + JSON.stringify(block.args ?? null).length;
      else if (block.type === 'tool_result')
        chars += typeof block.output === 'string' ? block.output.length : JSON.stringify(block.output ?? null).length;
    }
  for (const spec of request.tools ?? []) chars += spec.name.length + spec.description.length + JSON.stringify(spec.parameters).length;
  if (request.responseFormat) chars += JSON.stringify(request.responseFormat.schema).length;
  return chars;
}

/** Input tokens a request of `chars` characters is likely to cost (about 4 characters a token, rounded up). */
export const estimateTokens = (chars: number): number => Math.ceil(chars / 4);
