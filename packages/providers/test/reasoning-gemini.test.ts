import type { ModelResponse } from '@replan/core';
import { toolMessage, userMessage } from '@replan/core';
import { describe, expect, it } from 'vitest';
import { OpenAIChatModel } from '../src/index.js';
import type { ProviderProfileName } from '../src/profiles/provider-profile.js';
import { useFakeServer } from './support/fake-server.js';
import { chunk, completion } from './support/payloads.js';
import { bothWays } from './support/run.js';
import { nextTurn as turn, toolCallBlock, weatherCallWhole } from './support/weather-turns.js';

const server = useFakeServer();

const modelFor = (model: string, profile?: ProviderProfileName) =>
  new OpenAIChatModel({ model, baseURL: server.baseURL, apiKey: 'test-key', maxRetries: 0, ...(profile ? { profile } : {}) });
const nextTurn = (model: OpenAIChatModel, answer: ModelResponse) => turn(server, model, answer);

describe('thinking_blocks and thought signatures (LiteLLM, Gemini)', () => {
  const embeddedId = 'call_7f3a__thought__Q2lRQ0FZZ0JFQg==';

  it('zips provider_specific_fields.thought_signatures onto signature-less blocks; tool-call signatures and ids kept', async () => {
    const m = modelFor('gemini-2.5-pro');
    expect(m.profile).toBe('gemini');
    const { streamed } = await bothWays(server, m, {
      sse: {
        sse: [
          chunk({ role: 'assistant', reasoning_content: 'Plan: ', thinking_blocks: [{ type: 'thinking', thinking: 'Plan: ' }] }),
          chunk({
            reasoning_content: 'call weather.',
            thinking_blocks: [{ type: 'thinking', thinking: 'call weather.' }],
            provider_specific_fields: { thought_signatures: ['gsig-msg-1'] },
          }),
          chunk({
            tool_calls: [
              {
                index: 0,
                id: embeddedId,
                type: 'function',
                function: { name: 'get_weather', arguments: '{"city":"Paris"}' },
                provider_specific_fields: { thought_signature: 'gsig-call-1' },
              },
            ],
          }),
          chunk({}, 'tool_calls'),
        ],
      },
      json: {
        json: completion(
          {
            content: null,
            reasoning_content: 'Plan: call weather.',
            thinking_blocks: [{ type: 'thinking', thinking: 'Plan: call weather.' }],
            provider_specific_fields: { thought_signatures: ['gsig-msg-1'] },
            tool_calls: [{ ...weatherCallWhole(embeddedId)[0], provider_specific_fields: { thought_signature: 'gsig-call-1' } }],
          },
          'tool_calls',
        ),
      },
    });
    expect(streamed.message.content).toEqual([
      { type: 'reasoning', reasoning: 'Plan: call weather.', signature: 'gsig-msg-1', provider: 'gemini' },
      { ...toolCallBlock(embeddedId), signature: 'gsig-call-1' },
    ]);

    const sent = await nextTurn(m, streamed);
    expect(sent.messages[1].tool_calls[0]).toEqual({
      id: embeddedId,
      type: 'function',
      function: { name: 'get_weather', arguments: '{"city":"Paris"}' },
      extra_content: { google: { thought_signature: 'gsig-call-1' } },
      provider_specific_fields: { thought_signature: 'gsig-call-1' },
    });
    expect(sent.messages[1].provider_specific_fields).toEqual({ thought_signatures: ['gsig-msg-1'] });
    expect(sent.messages[2].tool_call_id).toBe(embeddedId);
  });

  it('falls back to reasoning_content when the blocks carry no text (never drops reasoning)', async () => {
    const m = modelFor('gemini-3-pro-preview');
    const { streamed } = await bothWays(server, m, {
      sse: {
        sse: [
          chunk({ role: 'assistant', reasoning_content: 'Thinking about ', thinking_blocks: [{ type: 'thinking', thinking: '' }] }),
          chunk({ reasoning_content: 'it.', provider_specific_fields: { thought_signatures: ['gsig-2'] } }),
          chunk({ content: 'Done.' }, 'stop'),
        ],
      },
      json: {
        json: completion({
          content: 'Done.',
          reasoning_content: 'Thinking about it.',
          thinking_blocks: [{ type: 'thinking', thinking: '' }],
          provider_specific_fields: { thought_signatures: ['gsig-2'] },
        }),
      },
    });
    expect(streamed.message.content).toEqual([
      { type: 'reasoning', reasoning: 'Thinking about it.', signature: 'gsig-2', provider: 'gemini' },
      { type: 'text', text: 'Done.' },
    ]);
  });

  it('gives the message signature to the first call of a step when that call has none', async () => {
    const m = modelFor('gemini-2.5-flash');
    server.reply({ json: completion({ content: 'ok' }) });
    await m.generate({
      messages: [
        userMessage('a'),
        {
          role: 'assistant',
          content: [
            { type: 'reasoning', reasoning: '', signature: 'gsig-step', provider: 'gemini' },
            toolCallBlock('c1') as never,
            toolCallBlock('c2') as never,
          ],
        },
        toolMessage([
          { type: 'tool_result', toolCallId: 'c1', name: 'get_weather', output: 1 },
          { type: 'tool_result', toolCallId: 'c2', name: 'get_weather', output: 2 },
        ]),
      ],
    });
    const [first, second] = server.last.messages[1].tool_calls;
    expect(first.extra_content).toEqual({ google: { thought_signature: 'gsig-step' } });
    expect(second.extra_content).toBeUndefined();
    expect(server.last.messages.slice(2)).toEqual([
      { role: 'tool', tool_call_id: 'c1', content: '1' },
      { role: 'tool', tool_call_id: 'c2', content: '2' },
    ]);
  });
});

describe("Gemini's OpenAI-compatible endpoint", () => {
  const GOOGLE = 'https://generativelanguage.googleapis.com/v1beta/openai';
  const model = () =>
    new OpenAIChatModel({
      model: 'gemini-2.5-flash',
      baseURL: GOOGLE,
      apiKey: 'test-key',
      maxRetries: 0,
      fetch: (input, init) => globalThis.fetch(String(input instanceof Request ? input.url : input).replace(GOOGLE, server.baseURL), init),
    });

  it('assembles index-less tool calls (a new id starts a call) and returns extra_content signatures in place only', async () => {
    const m = model();
    expect(m.profile).toBe('gemini');
    const { streamed } = await bothWays(server, m, {
      sse: {
        sse: [
          chunk({
            role: 'assistant',
            tool_calls: [
              {
                id: 'function-call-1',
                type: 'function',
                function: { name: 'get_weather', arguments: '{"city":' },
                extra_content: { google: { thought_signature: 'Cs4BAdHtim9' } },
              },
            ],
          }),
          chunk({ tool_calls: [{ type: 'function', function: { arguments: '"Paris"}' } }] }),
          chunk({ tool_calls: [{ id: 'function-call-2', type: 'function', function: { name: 'get_time', arguments: '{"tz":"CET"}' } }] }),
          chunk({}, 'stop'),
        ],
      },
      json: {
        json: completion(
          {
            content: null,
            tool_calls: [
              {
                id: 'function-call-1',
                type: 'function',
                function: { name: 'get_weather', arguments: '{"city":"Paris"}' },
                extra_content: { google: { thought_signature: 'Cs4BAdHtim9' } },
              },
              { id: 'function-call-2', type: 'function', function: { name: 'get_time', arguments: '{"tz":"CET"}' } },
            ],
          },
          'stop',
        ),
      },
    });
    expect(streamed.finishReason).toBe('tool_calls');
    expect(streamed.message.content).toEqual([
      { ...toolCallBlock('function-call-1'), signature: 'Cs4BAdHtim9' },
      { type: 'tool_call', id: 'function-call-2', name: 'get_time', args: { tz: 'CET' } },
    ]);
    const sent = await nextTurn(m, streamed);
    expect(sent.messages[1].tool_calls).toEqual([
      {
        id: 'function-call-1',
        type: 'function',
        function: { name: 'get_weather', arguments: '{"city":"Paris"}' },
        extra_content: { google: { thought_signature: 'Cs4BAdHtim9' } },
      },
      { id: 'function-call-2', type: 'function', function: { name: 'get_time', arguments: '{"tz":"CET"}' } },
    ]);
    expect(sent.messages[1].provider_specific_fields).toBeUndefined();
  });
});
