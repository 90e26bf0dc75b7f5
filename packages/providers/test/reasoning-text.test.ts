import type { ModelResponse } from '@replan/core';
import { userMessage } from '@replan/core';
import { describe, expect, it } from 'vitest';
import { OpenAIChatModel } from '../src/index.js';
import type { ProviderProfileName } from '../src/profiles/provider-profile.js';
import { useFakeServer } from './support/fake-server.js';
import { chunk, completion, usageChunk } from './support/payloads.js';
import { bothWays, textDeltas } from './support/run.js';
import { nextTurn as turn, toolCallBlock, weatherCall, weatherCallWhole } from './support/weather-turns.js';

const server = useFakeServer();

const modelFor = (model: string, profile?: ProviderProfileName) =>
  new OpenAIChatModel({ model, baseURL: server.baseURL, apiKey: 'test-key', maxRetries: 0, ...(profile ? { profile } : {}) });
const nextTurn = (model: OpenAIChatModel, answer: ModelResponse) => turn(server, model, answer);

describe('reasoning_content (DeepSeek, LiteLLM, older vLLM)', () => {
  const model = () => modelFor('deepseek-reasoner');

  it('becomes a reasoning block, streamed and not, with usage (cached = prompt_cache_hit_tokens)', async () => {
    const usage = {
      prompt_tokens: 30,
      completion_tokens: 20,
      prompt_cache_hit_tokens: 12,
      completion_tokens_details: { reasoning_tokens: 9 },
    };
    const { streamed, parts } = await bothWays(server, model(), {
      sse: {
        sse: [
          chunk({ role: 'assistant', content: null, reasoning_content: 'Let me ' }),
          chunk({ role: 'assistant', reasoning_content: 'think.' }),
          chunk({ content: '' }),
          ...weatherCall(),
          chunk({}, 'tool_calls'),
          usageChunk(usage),
        ],
      },
      json: {
        json: completion({ content: null, reasoning_content: 'Let me think.', tool_calls: weatherCallWhole() }, 'tool_calls', usage),
      },
    });
    expect(streamed.message.content).toEqual([{ type: 'reasoning', reasoning: 'Let me think.' }, toolCallBlock()]);
    expect(streamed.finishReason).toBe('tool_calls');
    expect(streamed.usage).toEqual({ inputTokens: 30, outputTokens: 20, reasoningTokens: 9, cachedTokens: 12 });
    expect(textDeltas(parts, 'reasoning-delta')).toBe('Let me think.');
    expect(server.received.at(-2)?.body.stream_options).toEqual({ include_usage: true });
  });

  it('goes back as reasoning_content on assistant messages with tool calls ("" when there was none)', async () => {
    const m = model();
    const sent = await nextTurn(m, {
      message: { role: 'assistant', content: [{ type: 'reasoning', reasoning: 'Let me think.' }, toolCallBlock()] },
      finishReason: 'tool_calls',
    });
    expect(sent.messages[1]).toEqual({
      role: 'assistant',
      content: null,
      reasoning_content: 'Let me think.',
      tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }],
    });
    expect(sent.messages[2]).toEqual({ role: 'tool', tool_call_id: 'call_1', content: '{"temp":21}' });

    const bare = await nextTurn(m, { message: { role: 'assistant', content: [toolCallBlock()] }, finishReason: 'tool_calls' });
    expect(bare.messages[1].reasoning_content).toBe('');

    server.reply({ json: completion({ content: 'ok' }) });
    await m.generate({
      messages: [
        userMessage('a'),
        {
          role: 'assistant',
          content: [
            { type: 'reasoning', reasoning: 'r' },
            { type: 'text', text: 'b' },
          ],
        },
        userMessage('c'),
      ],
    });
    expect(server.last.messages[1]).toEqual({ role: 'assistant', content: 'b' });
  });
});

describe('reasoning (vLLM, Ollama /v1, LM Studio)', () => {
  it('counts text once when reasoning and reasoning_content carry the same text', async () => {
    const { streamed, parts } = await bothWays(server, modelFor('qwen3:8b'), {
      sse: {
        sse: [
          chunk({ role: 'assistant', content: '', reasoning: 'Hmm, ', reasoning_content: 'Hmm, ' }),
          chunk({ role: 'assistant', content: '', reasoning: 'two.', reasoning_content: 'two.' }),
          chunk({ role: 'assistant', content: 'Answer: 2' }),
          chunk({ content: '' }, 'stop'),
        ],
      },
      json: { json: completion({ content: 'Answer: 2', reasoning: 'Hmm, two.', reasoning_content: 'Hmm, two.' }) },
    });
    expect(streamed.message.content).toEqual([
      { type: 'reasoning', reasoning: 'Hmm, two.' },
      { type: 'text', text: 'Answer: 2' },
    ]);
    expect(streamed.finishReason).toBe('stop');
    expect(textDeltas(parts, 'reasoning-delta')).toBe('Hmm, two.');
    expect(textDeltas(parts, 'text-delta')).toBe('Answer: 2');
  });

  it("reads Ollama's `reasoning` and sends no reasoning field back to a plain server", async () => {
    const m = modelFor('gpt-oss:20b');
    expect(m.profile).toBe('plain');
    const { streamed } = await bothWays(server, m, {
      sse: {
        sse: [
          chunk({ role: 'assistant', content: '', reasoning: 'Need weather.' }),
          chunk({
            role: 'assistant',
            content: '',
            tool_calls: [{ id: 'call_x1', index: 0, type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }],
          }),
          chunk({ role: 'assistant', content: '' }, 'tool_calls'),
        ],
      },
      json: { json: completion({ content: '', reasoning: 'Need weather.', tool_calls: weatherCallWhole('call_x1') }, 'tool_calls') },
    });
    expect(streamed.message.content).toEqual([{ type: 'reasoning', reasoning: 'Need weather.' }, toolCallBlock('call_x1')]);
    const sent = await nextTurn(m, streamed);
    expect(Object.keys(sent.messages[1]).sort()).toEqual(['content', 'role', 'tool_calls']);
  });
});

describe('a session moved between providers', () => {
  it("never sends one provider's reasoning fields to another", async () => {
    const content = [
      { type: 'reasoning', reasoning: 'a', signature: 'anthropic-sig', provider: 'anthropic' },
      { type: 'reasoning', reasoning: 'b', provider: 'openrouter', providerData: { type: 'reasoning.text', text: 'b', index: 0 } },
      toolCallBlock(),
    ] as const;
    const answer: ModelResponse = { message: { role: 'assistant', content: [...content] as never }, finishReason: 'tool_calls' };
    const openai = await nextTurn(modelFor('gpt-4o', 'openai'), answer);
    expect(Object.keys(openai.messages[1]).sort()).toEqual(['content', 'role', 'tool_calls']);
    const gemini = await nextTurn(modelFor('gemini-2.5-pro'), answer);
    expect(gemini.messages[1].tool_calls[0].extra_content).toBeUndefined();
    expect(gemini.messages[1].thinking_blocks).toBeUndefined();
  });
});
