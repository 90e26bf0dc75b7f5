import type { ContentBlock, ModelResponse } from '@replan/core';
import { userMessage } from '@replan/core';
import { describe, expect, it } from 'vitest';
import { modelFromEnv, OpenAIChatModel, type OpenAIChatModelOptions } from '../src/index.js';
import { useFakeServer } from './support/fake-server.js';
import { chunk, completion, usageChunk } from './support/payloads.js';
import { bothWays, collect, textDeltas } from './support/run.js';
import { nextTurn, toolCallBlock, weatherCall, weatherCallWhole } from './support/weather-turns.js';

const server = useFakeServer();

const modelFor = (extra: Partial<OpenAIChatModelOptions> = {}) =>
  new OpenAIChatModel({ model: 'Qwen/Qwen3-8B', baseURL: server.baseURL, apiKey: 'k', maxRetries: 0, ...extra });
const req = { messages: [userMessage('what is 2+2?')] };
const thought = (reasoning: string): ContentBlock => ({ type: 'reasoning', reasoning, provider: 'think-tags' });

/** The content cut at `at` (each a chunk boundary), streamed as SSE. */
const streamed = (content: string, at: readonly number[], finish = 'stop') => {
  const bounds = [0, ...at, content.length];
  const pieces = bounds.slice(1).map((end, i) => content.slice(bounds[i], end));
  return { sse: [...pieces.map((c, i) => chunk(i === 0 ? { role: 'assistant', content: c } : { content: c })), chunk({}, finish)] };
};

/**
 * `content` not streamed, then streamed with a chunk boundary at every position and one character
 * per chunk: every stream gives the whole response's blocks, and its deltas carry exactly the
 * reasoning and the answer — no tag fragment, no thinking in the text.
 */
async function everySplit(model: OpenAIChatModel, content: string, expected: readonly ContentBlock[]): Promise<ModelResponse> {
  server.reply({ json: completion({ content }) });
  const whole = await model.generate(req);
  expect(whole.message.content).toEqual(expected);
  const reasoning = expected
    .filter((b) => b.type === 'reasoning')
    .map((b) => (b as { reasoning: string }).reasoning)
    .join('');
  const text = expected
    .filter((b) => b.type === 'text')
    .map((b) => (b as { text: string }).text)
    .join('');
  const cuts = [...Array.from({ length: content.length + 1 }, (_, i) => [i]), Array.from({ length: content.length }, (_, i) => i + 1)];
  for (const at of cuts) {
    server.reply(streamed(content, at));
    const { parts, response } = await collect(model, req);
    expect(response, `cut at ${at.join(',')}`).toEqual(whole);
    expect(textDeltas(parts, 'reasoning-delta')).toBe(reasoning);
    expect(textDeltas(parts, 'text-delta')).toBe(text);
  }
  return whole;
}

describe('<think> tags in the content (servers without a reasoning parser)', () => {
  it('become a think-tags reasoning block before a clean answer, however the stream is cut', async () => {
    await everySplit(modelFor(), '<think>\nThe user asks 2+2.\n</think>\n\nIt is 4.', [
      thought('The user asks 2+2.'),
      { type: 'text', text: 'It is 4.' },
    ]);
  });

  it('stream the thinking as reasoning-deltas before the text-deltas, with usage', async () => {
    const usage = { prompt_tokens: 10, completion_tokens: 12 };
    const { streamed: response, parts } = await bothWays(server, modelFor(), {
      sse: {
        sse: [
          chunk({ role: 'assistant', content: '<thi' }),
          chunk({ content: 'nk>Hmm.</th' }),
          chunk({ content: 'ink>4' }, 'stop'),
          usageChunk(usage),
        ],
      },
      json: { json: completion({ content: '<think>Hmm.</think>4' }, 'stop', usage) },
    });
    expect(response.message.content).toEqual([thought('Hmm.'), { type: 'text', text: '4' }]);
    expect(response.usage).toEqual({ inputTokens: 10, outputTokens: 12 });
    expect(parts.map((p) => p.type)).toEqual(['reasoning-delta', 'text-delta', 'finish']);
  });

  it('change nothing when there are none', async () => {
    await everySplit(modelFor(), '  \nA <b>bold</b> answer < 5. ', [{ type: 'text', text: '  \nA <b>bold</b> answer < 5. ' }]);
  });

  it('later in the answer stay text under auto', async () => {
    await everySplit(modelFor(), 'Write <think>x</think> to think.', [{ type: 'text', text: 'Write <think>x</think> to think.' }]);
    await everySplit(modelFor(), '<think>a</think>Then <think>b</think>', [thought('a'), { type: 'text', text: 'Then <think>b</think>' }]);
  });

  it('that are empty give no reasoning block', async () => {
    await everySplit(modelFor(), '<think></think>Answer', [{ type: 'text', text: 'Answer' }]);
    await everySplit(modelFor(), '<think>\n\n</think>\n\nAnswer', [{ type: 'text', text: 'Answer' }]);
  });

  it('without the opening tag are read with thinkTags: on (and left as text under auto)', async () => {
    const content = 'Okay, 2+2.\n</think>\n\n4';
    await everySplit(modelFor({ thinkTags: 'on' }), content, [thought('Okay, 2+2.'), { type: 'text', text: '4' }]);
    await everySplit(modelFor(), content, [{ type: 'text', text: content }]);
  });

  it('are left alone with thinkTags: off', async () => {
    await everySplit(modelFor({ thinkTags: 'off' }), '<think>a</think>b', [{ type: 'text', text: '<think>a</think>b' }]);
  });

  it('cut off by max_tokens leave only reasoning', async () => {
    const { streamed: response } = await bothWays(server, modelFor(), {
      sse: streamed('<think>Still going </thi', [9, 20], 'length'),
      json: { json: completion({ content: '<think>Still going </thi' }, 'length') },
    });
    expect(response.message.content).toEqual([thought('Still going </thi')]);
    expect(response.finishReason).toBe('length');
  });

  it('are kept next to a reasoning field, which comes first', async () => {
    const { streamed: response } = await bothWays(server, modelFor(), {
      sse: { sse: [chunk({ role: 'assistant', reasoning: 'field', content: '<think>tag' }), chunk({ content: '</think>ok' }, 'stop')] },
      json: { json: completion({ reasoning: 'field', content: '<think>tag</think>ok' }) },
    });
    expect(response.message.content).toEqual([{ type: 'reasoning', reasoning: 'field' }, thought('tag'), { type: 'text', text: 'ok' }]);
  });
});

describe('tool calls after <think> thinking', () => {
  const sse = {
    sse: [
      chunk({ role: 'assistant', content: '<think>Need the wea' }),
      chunk({ content: 'ther.</think>\n' }),
      ...weatherCall(),
      chunk({}, 'tool_calls'),
    ],
  };
  const json = { json: completion({ content: '<think>Need the weather.</think>\n', tool_calls: weatherCallWhole() }, 'tool_calls') };

  it('give the reasoning block and the call, and no reasoning field or tags go back to plain and openai servers', async () => {
    for (const profile of ['plain', 'openai'] as const) {
      const m = modelFor({ profile });
      const { streamed: response } = await bothWays(server, m, { sse, json });
      expect(response.message.content).toEqual([thought('Need the weather.'), toolCallBlock()]);
      expect(response.finishReason).toBe('tool_calls');
      const sent = await nextTurn(server, m, response);
      expect(sent.messages[1]).toEqual({
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }],
      });
    }
  });

  it('go back as reasoning_content to deepseek (an R1 distill), like any plain reasoning', async () => {
    const m = modelFor({ model: 'deepseek-r1:8b' });
    expect(m.profile).toBe('deepseek');
    const { streamed: response } = await bothWays(server, m, { sse, json });
    const sent = await nextTurn(server, m, response);
    expect(sent.messages[1].reasoning_content).toBe('Need the weather.');
    expect(sent.messages[1].content).toBeNull();
  });

  it('leave the answer text clean on the next turn', async () => {
    const m = modelFor();
    server.reply({ json: completion({ content: '<think>sum</think>It is 4.' }) });
    const answer = await m.generate(req);
    server.reply({ json: completion({ content: 'ok' }) });
    await m.generate({ messages: [...req.messages, answer.message, userMessage('thanks')] });
    expect(server.last.messages[1]).toEqual({ role: 'assistant', content: 'It is 4.' });
  });
});

describe('REPLAN_THINK_TAGS', () => {
  it('sets thinkTags for modelFromEnv (default auto; unknown values ignored)', () => {
    const env = { OPENAI_BASE_URL: 'http://localhost:8000/v1', REPLAN_MODEL: 'deepseek-ai/DeepSeek-R1-Distill-Qwen-7B' };
    expect(modelFromEnv(env)?.thinkTags).toBe('auto');
    expect(modelFromEnv({ ...env, REPLAN_THINK_TAGS: 'on' })?.thinkTags).toBe('on');
    expect(modelFromEnv({ ...env, REPLAN_THINK_TAGS: 'maybe' })?.thinkTags).toBe('auto');
  });
});
