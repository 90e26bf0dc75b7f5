import type { ModelResponse } from '@replan/core';
import { userMessage } from '@replan/core';
import { describe, expect, it } from 'vitest';
import { OpenAIChatModel } from '../src/index.js';
import type { ProviderProfileName } from '../src/profiles/provider-profile.js';
import { useFakeServer } from './support/fake-server.js';
import { chunk, completion, USAGE } from './support/payloads.js';
import { bothWays, textDeltas } from './support/run.js';
import { nextTurn as turn, toolCallBlock, weatherCallWhole } from './support/weather-turns.js';

const server = useFakeServer();

const modelFor = (model: string, profile?: ProviderProfileName) =>
  new OpenAIChatModel({ model, baseURL: server.baseURL, apiKey: 'test-key', maxRetries: 0, ...(profile ? { profile } : {}) });
const nextTurn = (model: OpenAIChatModel, answer: ModelResponse) => turn(server, model, answer);

describe('reasoning_details (OpenRouter)', () => {
  const details = [
    { type: 'reasoning.text', text: 'First I check the city.', signature: 'sig-or-1', format: 'anthropic-claude-v1', index: 0, id: null },
    { type: 'reasoning.summary', summary: 'Looked up weather.', format: 'openai-responses-v1', index: 1, id: 'rs_1' },
    { type: 'reasoning.encrypted', data: 'ENCRYPTED==', format: 'openai-responses-v1', index: 2, id: 'rs_1' },
  ];

  it('merges fragments by index (signature on a later fragment), prefers details over `reasoning`', async () => {
    const m = modelFor('anthropic/claude-sonnet-4', 'openrouter');
    const { streamed, parts } = await bothWays(server, m, {
      sse: {
        sse: [
          chunk({
            role: 'assistant',
            content: '',
            reasoning: 'First I ',
            reasoning_details: [{ type: 'reasoning.text', text: 'First I ', format: 'anthropic-claude-v1', index: 0, id: null }],
          }),
          chunk({
            role: 'assistant',
            content: '',
            reasoning: 'check the city.',
            reasoning_details: [{ type: 'reasoning.text', text: 'check the city.', format: 'anthropic-claude-v1', index: 0 }],
          }),
          chunk({
            role: 'assistant',
            content: '',
            reasoning_details: [{ type: 'reasoning.text', signature: 'sig-or-1', format: 'anthropic-claude-v1', index: 0 }],
          }),
          chunk({ role: 'assistant', content: '', reasoning: 'Looked up weather.', reasoning_details: [details[1]] }),
          chunk({ role: 'assistant', content: '', reasoning_details: [details[2]] }),
          chunk({
            role: 'assistant',
            content: null,
            tool_calls: [{ index: 0, id: 'toolu_01', type: 'function', function: { name: 'get_weather', arguments: '' } }],
          }),
          chunk({
            role: 'assistant',
            content: null,
            tool_calls: [{ index: 0, type: 'function', function: { arguments: '{"city":"Paris"}' } }],
          }),
          chunk({ role: 'assistant', content: null, tool_calls: [{ index: 0, type: 'function', function: { arguments: '' } }] }),
          chunk({ role: 'assistant', content: '' }, 'tool_calls', { usage: USAGE }),
        ],
      },
      json: {
        json: completion(
          {
            content: '',
            reasoning: 'First I check the city.Looked up weather.',
            reasoning_details: details,
            tool_calls: weatherCallWhole('toolu_01'),
          },
          'tool_calls',
          USAGE,
        ),
      },
    });
    expect(streamed.message.content).toEqual([
      { type: 'reasoning', reasoning: 'First I check the city.', signature: 'sig-or-1', provider: 'openrouter', providerData: details[0] },
      { type: 'reasoning', reasoning: 'Looked up weather.', provider: 'openrouter', providerData: details[1] },
      { type: 'reasoning', reasoning: '', redacted: true, data: 'ENCRYPTED==', provider: 'openrouter', providerData: details[2] },
      toolCallBlock('toolu_01'),
    ]);
    expect(streamed.usage).toEqual({ inputTokens: 120, outputTokens: 80, reasoningTokens: 50, cachedTokens: 64 });
    expect(textDeltas(parts, 'reasoning-delta')).toBe('First I check the city.Looked up weather.');

    const sent = await nextTurn(m, streamed);
    expect(sent.messages[1].reasoning_details).toEqual(details);
    expect(sent.messages[1].thinking_blocks).toBeUndefined();
  });

  it('sends reasoning_details back on assistant messages without tool calls too', async () => {
    const m = modelFor('openai/o3', 'openrouter');
    server.reply({ json: completion({ content: 'ok' }) });
    await m.generate({
      messages: [
        userMessage('a'),
        {
          role: 'assistant',
          content: [
            { type: 'reasoning', reasoning: 's', provider: 'openrouter', providerData: details[1] as never },
            { type: 'text', text: 'b' },
          ],
        },
        userMessage('c'),
      ],
    });
    expect(server.last.messages[1]).toEqual({ role: 'assistant', content: 'b', reasoning_details: [details[1]] });
  });
});
