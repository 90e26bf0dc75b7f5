import { createAnthropic } from '@ai-sdk/anthropic';
import { aiSdkModel } from '@replan/ai-sdk';
import { ModelError, type ModelRetry, ReActAgent, Runner, tool, userMessage } from '@replan/core';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { useFakeServer, type Reply } from '../../providers/test/support/fake-server.js';

// A local server that speaks Anthropic's Messages API (JSON and named SSE events); @ai-sdk/anthropic is the client.
const server = useFakeServer();
const anthropic = () => createAnthropic({ baseURL: server.baseURL, apiKey: 'test-key' });

const weather = tool({
  name: 'get_weather',
  description: 'Weather of a city',
  parameters: z.object({ city: z.string() }),
  execute: ({ city }) => ({ city, temp: 21 }),
});

const thinking = { type: 'thinking', thinking: 'I should call the weather tool.', signature: 'EqQBCgIYAhIM-signed-by-anthropic' };
const toolUse = { type: 'tool_use', id: 'toolu_01', name: 'get_weather', input: { city: 'Paris' } };
const message = (content: unknown[], stop_reason: string) => ({
  id: 'msg_1',
  type: 'message',
  role: 'assistant',
  model: 'claude-sonnet-4-5',
  content,
  stop_reason,
  stop_sequence: null,
  usage: { input_tokens: 20, output_tokens: 9, cache_read_input_tokens: 6, cache_creation_input_tokens: 4 },
});
const first = (s: typeof server) => s.received[0]?.body;
const event = (name: string, data: Record<string, unknown>) => ({ event: name, data: { type: name, ...data } });

function signedToolTurn(stream: boolean): Reply {
  if (!stream) return { json: message([thinking, toolUse], 'tool_use') };
  return {
    done: false,
    sse: [
      event('message_start', { message: message([], null as never) }),
      event('content_block_start', { index: 0, content_block: { type: 'thinking', thinking: '' } }),
      event('content_block_delta', { index: 0, delta: { type: 'thinking_delta', thinking: thinking.thinking } }),
      event('content_block_delta', { index: 0, delta: { type: 'signature_delta', signature: thinking.signature } }),
      event('content_block_stop', { index: 0 }),
      event('content_block_start', { index: 1, content_block: { ...toolUse, input: {} } }),
      event('content_block_delta', { index: 1, delta: { type: 'input_json_delta', partial_json: '{"city":' } }),
      event('content_block_delta', { index: 1, delta: { type: 'input_json_delta', partial_json: '"Paris"}' } }),
      event('content_block_stop', { index: 1 }),
      event('message_delta', { delta: { stop_reason: 'tool_use', stop_sequence: null }, usage: { output_tokens: 9 } }),
      event('message_stop', {}),
    ],
  };
}

const answer = 'It is 21°C in Paris.';
const answerTurn: Reply = { json: message([{ type: 'text', text: answer }], 'end_turn') };
const streamedAnswerTurn: Reply = {
  done: false,
  sse: [
    event('message_start', { message: message([], null as never) }),
    event('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }),
    event('content_block_delta', { index: 0, delta: { type: 'text_delta', text: answer } }),
    event('content_block_stop', { index: 0 }),
    event('message_delta', { delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 9 } }),
    event('message_stop', {}),
  ],
};
const anthropicError = (status: number, type: string, text: string, headers?: Record<string, string>): Reply => ({
  json: { type: 'error', error: { type, message: text } },
  status,
  ...(headers ? { headers } : {}),
});

describe('aiSdkModel over @ai-sdk/anthropic against a local Messages API server', () => {
  for (const stream of [false, true])
    it(`returns a signed thinking block and sends the signature back on the next turn (${stream ? 'streaming' : 'not streaming'})`, async () => {
      server.reply(signedToolTurn(stream), stream ? streamedAnswerTurn : answerTurn);
      const model = aiSdkModel(anthropic()('claude-sonnet-4-5'), { settings: { reasoning: { budgetTokens: 1024 } } });
      const agent = new ReActAgent({ name: 'assistant', model, tools: [weather], instruction: 'Use tools.' });
      const run = new Runner({ agent, appName: 'ai-sdk-test' }).run({ userId: 'u', input: 'Weather in Paris?', stream });
      const result = await run.result();
      expect(result.status).toBe('completed');
      expect(result.output).toBe('It is 21°C in Paris.');
      // Anthropic's input total counts the cache reads and writes too (as OpenAI's prompt_tokens do).
      expect(result.usage).toMatchObject({ inputTokens: 60, outputTokens: 18, cachedTokens: 12, cacheWriteTokens: 8 });
      expect(first(server).stream ?? false).toBe(stream);

      expect(first(server).thinking).toEqual({ type: 'enabled', budget_tokens: 1024 });
      const second = server.received[1]?.body;
      const assistant = second.messages.find((m: { role: string }) => m.role === 'assistant');
      expect(assistant.content).toEqual([
        { type: 'thinking', thinking: thinking.thinking, signature: thinking.signature },
        { type: 'tool_use', id: 'toolu_01', name: 'get_weather', input: { city: 'Paris' } },
      ]);
      expect(second.messages.at(-1).content[0]).toMatchObject({ type: 'tool_result', tool_use_id: 'toolu_01' });
    });

  it('streams the thinking, then the signature, and keeps it on the reasoning block', async () => {
    server.reply(signedToolTurn(true));
    const model = aiSdkModel(anthropic()('claude-sonnet-4-5'));
    const parts = [];
    for await (const part of model.stream({ messages: [userMessage('Weather in Paris?')] })) parts.push(part);
    expect(parts.filter((p) => p.type === 'reasoning-delta')).toEqual([{ type: 'reasoning-delta', delta: thinking.thinking }]);
    expect(
      parts
        .filter((p) => p.type === 'tool-call-delta')
        .map((p) => p.argsDelta)
        .join(''),
    ).toBe('{"city":"Paris"}');
    const last = parts.at(-1);
    expect(last?.type === 'finish' && last.response).toMatchObject({
      finishReason: 'tool_calls',
      message: {
        content: [
          { type: 'reasoning', reasoning: thinking.thinking, signature: thinking.signature, provider: 'anthropic' },
          { type: 'tool_call', id: 'toolu_01', name: 'get_weather', args: { city: 'Paris' } },
        ],
      },
    });
  });

  it('maps a 429 to a rate_limit ModelError with the retry-after the server sent, and retries after it', async () => {
    server.reply(
      anthropicError(429, 'rate_limit_error', 'Number of request tokens has exceeded your per-minute rate limit', { 'retry-after': '7' }),
    );
    const error = await aiSdkModel(anthropic()('claude-sonnet-4-5'), { maxRetries: 0 })
      .generate({ messages: [userMessage('hi')] })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelError);
    expect(error).toMatchObject({ kind: 'rate_limit', status: 429, retryAfterMs: 7000, retryable: true, model: 'claude-sonnet-4-5' });
    expect((error as Error).message).toMatch(/per-minute rate limit.*retry after 7s/);

    const retries: ModelRetry[] = [];
    server.reply(anthropicError(429, 'rate_limit_error', 'slow down', { 'retry-after': '0' }), answerTurn);
    const response = await aiSdkModel(anthropic()('claude-sonnet-4-5'), { onRetry: (r) => retries.push(r) }).generate({
      messages: [userMessage('hi')],
    });
    expect(response.message.content).toEqual([{ type: 'text', text: 'It is 21°C in Paris.' }]);
    expect(retries).toHaveLength(1);
    expect(retries[0]).toMatchObject({ attempt: 1, delayMs: 0 });
    expect(server.received).toHaveLength(3);
  });

  it("maps Anthropic's prompt-too-long error to context_length and a 401 to auth, neither retried", async () => {
    server.reply(anthropicError(400, 'invalid_request_error', 'prompt is too long: 213000 tokens > 200000 maximum'));
    const overflow = await aiSdkModel(anthropic()('claude-sonnet-4-5'))
      .generate({ messages: [userMessage('hi')] })
      .catch((e: unknown) => e);
    expect(overflow).toBeInstanceOf(ModelError);
    expect(overflow).toMatchObject({ kind: 'context_length', status: 400, retryable: false });

    server.reply(anthropicError(401, 'authentication_error', 'invalid x-api-key'));
    const auth = await aiSdkModel(anthropic()('claude-sonnet-4-5'))
      .generate({ messages: [userMessage('hi')] })
      .catch((e: unknown) => e);
    expect(auth).toMatchObject({ kind: 'auth', status: 401, retryable: false });
    expect((auth as Error).message).toMatch(/invalid x-api-key — check the API key/);
    expect(server.received).toHaveLength(2);
  });
});
