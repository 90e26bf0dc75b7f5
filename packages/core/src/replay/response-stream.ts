import type { ModelResponse, ModelStreamPart } from '../models/chat-model.js';

/**
 * A whole response as stream parts, the way a provider streams it: each text and reasoning block
 * as one delta, each tool call as one `tool-call-delta` with its id, name and JSON arguments,
 * then `finish` with the response itself (so the consumer gets it verbatim).
 */
export function* responseParts(response: ModelResponse): Generator<ModelStreamPart, void, undefined> {
  let index = 0;
  for (const block of response.message.content) {
    if (block.type === 'text' && block.text) yield { type: 'text-delta', delta: block.text };
    else if (block.type === 'reasoning' && block.reasoning) yield { type: 'reasoning-delta', delta: block.reasoning };
    else if (block.type === 'tool_call')
      yield {
        type: 'tool-call-delta',
        index: index++,
        id: block.id,
        name: block.name,
        argsDelta: block.rawArgs ?? JSON.stringify(block.args),
      };
  }
  yield { type: 'finish', response };
}
