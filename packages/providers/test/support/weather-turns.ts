import type { Message, ModelResponse } from '@replan/core';
import { toolMessage, userMessage } from '@replan/core';
import type { OpenAIChatModel } from '../../src/index.js';
import type { FakeServer } from './fake-server.js';
import { chunk, completion } from './payloads.js';

/** A `get_weather` call streamed in three deltas (arguments split mid-token). */
export const weatherCall = (id = 'call_1', args = '{"city":"Paris"}') => [
  chunk({ tool_calls: [{ index: 0, id, type: 'function', function: { name: 'get_weather', arguments: '' } }] }),
  chunk({ tool_calls: [{ index: 0, function: { arguments: args.slice(0, 8) } }] }),
  chunk({ tool_calls: [{ index: 0, function: { arguments: args.slice(8) } }] }),
];

/** The same call in a non-streaming message. */
export const weatherCallWhole = (id = 'call_1', args = '{"city":"Paris"}') => [
  { id, type: 'function', function: { name: 'get_weather', arguments: args } },
];

export const toolCallBlock = (id = 'call_1') => ({ type: 'tool_call' as const, id, name: 'get_weather', args: { city: 'Paris' } });

/** The next turn: the user's question, the model's answer, the tool's result. Returns the body the server received. */
export async function nextTurn(server: FakeServer, model: OpenAIChatModel, answer: ModelResponse): Promise<any> {
  const calls = answer.message.content.filter((b) => b.type === 'tool_call');
  const messages: Message[] = [
    userMessage('weather in Paris?'),
    answer.message,
    toolMessage(
      calls.map((c) => ({ type: 'tool_result', toolCallId: (c as { id: string }).id, name: 'get_weather', output: { temp: 21 } })),
    ),
  ];
  server.reply({ json: completion({ content: 'It is 21°C.' }) });
  await model.generate({ messages });
  return server.last;
}
