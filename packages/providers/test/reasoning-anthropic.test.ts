import type { ModelResponse } from '@replan/core';
import { toolMessage, userMessage } from '@replan/core';
import { describe, expect, it } from 'vitest';
import { OpenAIChatModel } from '../src/index.js';
import type { ProviderProfileName } from '../src/profiles/provider-profile.js';
import { useFakeServer } from './support/fake-server.js';
import { chunk, completion } from './support/payloads.js';
import { bothWays, collect, textDeltas } from './support/run.js';
import { nextTurn as turn, toolCallBlock, weatherCall, weatherCallWhole } from './support/weather-turns.js';

const server = useFakeServer();

const modelFor = (model: string, profile?: ProviderProfileName) =>
  new OpenAIChatModel({ model, baseURL: server.baseURL, apiKey: 'test-key', maxRetries: 0, ...(profile ? { profile } : {}) });
const nextTurn = (model: OpenAIChatModel, answer: ModelResponse) => turn(server, model, answer);

describe('thinking_blocks (LiteLLM, Anthropic)', () => {
  const model = () => modelFor('claude-sonnet-4-5');

  it('keeps signatures that arrive as {thinking: "", signature}; redacted_thinking keeps data and shows no text', async () => {
    const m = model();
    expect(m.profile).toBe('anthropic');
    const { streamed, parts } = await bothWays(server, m, {
      sse: {
        sse: [
          chunk({
            role: 'assistant',
            content: '',
            reasoning_content: 'The user ',
            thinking_blocks: [{ type: 'thinking', thinking: 'The user ', signature: null }],
          }),
          chunk({
            content: '',
            reasoning_content: 'wants weather.',
            thinking_blocks: [{ type: 'thinking', thinking: 'wants weather.', signature: null }],
          }),
          chunk({ content: '', thinking_blocks: [{ type: 'thinking', thinking: '', signature: 'EqQBCkgIARABGAIi' }] }),
          chunk({ content: '', thinking_blocks: [{ type: 'redacted_thinking', data: 'EmwKAhgBEgy3va3pzix' }] }),
          chunk({ content: 'Checking.' }),
          ...weatherCall('toolu_01ABC'),
          chunk({}, 'tool_calls'),
        ],
      },
      json: {
        json: completion(
          {
            content: 'Checking.',
            reasoning_content: 'The user wants weather.',
            thinking_blocks: [
              { type: 'thinking', thinking: 'The user wants weather.', signature: 'EqQBCkgIARABGAIi' },
              { type: 'redacted_thinking', data: 'EmwKAhgBEgy3va3pzix' },
            ],
            tool_calls: weatherCallWhole('toolu_01ABC'),
          },
          'tool_calls',
        ),
      },
    });
    expect(streamed.message.content).toEqual([
      { type: 'reasoning', reasoning: 'The user wants weather.', signature: 'EqQBCkgIARABGAIi', provider: 'anthropic' },
      { type: 'reasoning', reasoning: '', redacted: true, data: 'EmwKAhgBEgy3va3pzix', provider: 'anthropic' },
      { type: 'text', text: 'Checking.' },
      toolCallBlock('toolu_01ABC'),
    ]);
    expect(textDeltas(parts, 'reasoning-delta')).toBe('The user wants weather.');

    const sent = await nextTurn(m, streamed);
    expect(sent.messages[1]).toEqual({
      role: 'assistant',
      content: 'Checking.',
      tool_calls: [{ id: 'toolu_01ABC', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }],
      thinking_blocks: [
        { type: 'thinking', thinking: 'The user wants weather.', signature: 'EqQBCkgIARABGAIi' },
        { type: 'redacted_thinking', data: 'EmwKAhgBEgy3va3pzix' },
      ],
    });
  });

  it('keeps a signature that comes with the full block, and two blocks stay two', async () => {
    const blocks = [
      { type: 'thinking', thinking: 'one', signature: 'sig-a' },
      { type: 'thinking', thinking: 'two', signature: 'sig-b' },
    ];
    const { streamed } = await bothWays(server, model(), {
      sse: {
        sse: [
          chunk({ role: 'assistant', thinking_blocks: [blocks[0]] }),
          chunk({ thinking_blocks: [blocks[1]] }),
          chunk({ content: 'hi' }, 'stop'),
        ],
      },
      json: { json: completion({ content: 'hi', reasoning_content: 'onetwo', thinking_blocks: blocks }) },
    });
    expect(streamed.message.content).toEqual([
      { type: 'reasoning', reasoning: 'one', signature: 'sig-a', provider: 'anthropic' },
      { type: 'reasoning', reasoning: 'two', signature: 'sig-b', provider: 'anthropic' },
      { type: 'text', text: 'hi' },
    ]);
  });

  it.each([
    ['with the text only in thinking_blocks', {}],
    ['with the text repeated in reasoning_content too', { reasoning_content: 'The user wants weather.' }],
  ])('keeps a block once, with its signature, when the last chunk repeats its whole text signed (LiteLLM) — %s', async (_name, extra) => {
    const fragments = [
      chunk({
        role: 'assistant',
        content: '',
        reasoning_content: 'The user ',
        thinking_blocks: [{ type: 'thinking', thinking: 'The user ', signature: null }],
      }),
      chunk({
        content: '',
        reasoning_content: 'wants weather.',
        thinking_blocks: [{ type: 'thinking', thinking: 'wants weather.', signature: null }],
      }),
      chunk({
        content: '',
        ...extra,
        thinking_blocks: [{ type: 'thinking', thinking: 'The user wants weather.', signature: 'EqQBCkgIARABGAIi' }],
      }),
      chunk({ content: 'Sunny.' }, 'stop'),
    ];
    server.reply({ sse: fragments });
    const { response, parts } = await collect(model(), { messages: [userMessage('weather?')] });
    expect(response.message.content).toEqual([
      { type: 'reasoning', reasoning: 'The user wants weather.', signature: 'EqQBCkgIARABGAIi', provider: 'anthropic' },
      { type: 'text', text: 'Sunny.' },
    ]);
    expect(textDeltas(parts, 'reasoning-delta')).toBe('The user wants weather.');
  });

  it('sends no thinking_blocks on answers without tool calls, nor unsigned or foreign blocks', async () => {
    const m = model();
    server.reply({ json: completion({ content: 'ok' }) });
    await m.generate({
      messages: [
        userMessage('a'),
        {
          role: 'assistant',
          content: [
            { type: 'reasoning', reasoning: 'x', signature: 's', provider: 'anthropic' },
            { type: 'text', text: 'b' },
          ],
        },
        userMessage('c'),
        {
          role: 'assistant',
          content: [
            { type: 'reasoning', reasoning: 'unsigned', provider: 'anthropic' },
            { type: 'reasoning', reasoning: 'g', signature: 'gsig', provider: 'gemini' },
            toolCallBlock('t1') as never,
          ],
        },
        toolMessage([{ type: 'tool_result', toolCallId: 't1', name: 'get_weather', output: 'sunny' }]),
      ],
    });
    expect(server.last.messages[1]).toEqual({ role: 'assistant', content: 'b' });
    expect(server.last.messages[3].thinking_blocks).toBeUndefined();
    expect(server.last.messages[4]).toEqual({ role: 'tool', tool_call_id: 't1', content: 'sunny' });
  });
});
