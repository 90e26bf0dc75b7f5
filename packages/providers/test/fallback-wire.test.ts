import type { ChatModel, Message, ModelResponse } from '@replan/core';
import { fallbackModel, toolMessage, userMessage } from '@replan/core';
import { describe, expect, it } from 'vitest';
import { OpenAIChatModel, OpenAIResponsesModel, type ProviderProfileName } from '../src/index.js';
import { useFakeServer, type FakeServer } from './support/fake-server.js';
import { chunk, completion } from './support/payloads.js';
import { collect } from './support/run.js';
import { weatherCallWhole } from './support/weather-turns.js';

// Two servers: the primary's provider and the fallback's, each recording the bodies it received.
const primaryServer = useFakeServer();
const backupServer = useFakeServer();

const SIGNATURE = 'EqQBCkgIARABGAIi-anthropic-signature';
const REDACTED = 'EmwKAhgBEgy3va3pzix-redacted';
const ENCRYPTED = 'gAAAAABo-encrypted-reasoning==';

const chatModel = (server: FakeServer, model: string, profile?: ProviderProfileName) =>
  new OpenAIChatModel({ model, baseURL: server.baseURL, apiKey: 'k', maxRetries: 0, ...(profile ? { profile } : {}) });

/** The conversation after the first turn: the question, `answer` (a tool call with reasoning), the tool's result. */
const afterToolCall = (answer: ModelResponse): Message[] => [
  userMessage('weather in Paris?'),
  answer.message,
  toolMessage([{ type: 'tool_result', toolCallId: 'call_1', name: 'get_weather', output: { temp: 21 } }]),
];

/** Claude (through LiteLLM) answers the first turn with signed and redacted thinking and a tool call. */
async function claudeFirstTurn(claude: ChatModel): Promise<ModelResponse> {
  primaryServer.reply({
    json: completion(
      {
        content: 'Checking.',
        thinking_blocks: [
          { type: 'thinking', thinking: 'The user wants the weather.', signature: SIGNATURE },
          { type: 'redacted_thinking', data: REDACTED },
        ],
        tool_calls: weatherCallWhole('call_1'),
      },
      'tool_calls',
    ),
  });
  return claude.generate({ messages: [userMessage('weather in Paris?')] });
}

const rateLimited = { json: { error: { message: 'Rate limit reached', type: 'rate_limit_error' } }, status: 429 } as const;
const overloaded = { json: { error: { message: 'Overloaded', type: 'overloaded_error' } }, status: 503 } as const;

describe('fallbackModel on the wire (the real openai client against recording servers)', () => {
  it('429 from Claude: the OpenAI model answers, and no Anthropic signature or redacted thinking reaches it', async () => {
    const claude = chatModel(primaryServer, 'claude-sonnet-4-5');
    const gpt = chatModel(backupServer, 'gpt-4o-mini', 'openai');
    expect(claude.profile).toBe('anthropic');
    const model = fallbackModel([claude, gpt]);
    const messages = afterToolCall(await claudeFirstTurn(claude));

    primaryServer.reply(rateLimited);
    backupServer.reply({ json: completion({ content: 'It is 21°C.' }) });
    const response = await model.generate({ messages });

    expect(response.model).toEqual({ id: 'gpt-4o-mini' });
    expect(response.message.content).toEqual([{ type: 'text', text: 'It is 21°C.' }]);
    // Claude was sent its own thinking back; the OpenAI server got none of it.
    expect(JSON.stringify(primaryServer.last)).toContain(SIGNATURE);
    expect(backupServer.received).toHaveLength(1);
    const sent = JSON.stringify(backupServer.last);
    for (const bound of [SIGNATURE, REDACTED, 'thinking_blocks']) expect(sent).not.toContain(bound);
    expect(backupServer.last.messages[1]).toEqual({
      role: 'assistant',
      content: 'Checking.',
      tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }],
    });
  });

  it('a fallback that takes plain reasoning (DeepSeek) gets the thinking as text, without its signature', async () => {
    const claude = chatModel(primaryServer, 'claude-sonnet-4-5');
    const deepseek = chatModel(backupServer, 'deepseek-reasoner', 'deepseek');
    const messages = afterToolCall(await claudeFirstTurn(claude));
    primaryServer.reply(overloaded);
    backupServer.reply({ json: completion({ content: 'It is 21°C.' }) });
    await fallbackModel([claude, deepseek]).generate({ messages });
    expect(backupServer.last.messages[1].reasoning_content).toBe('The user wants the weather.');
    expect(JSON.stringify(backupServer.last)).not.toContain(SIGNATURE);
  });

  it('503 from the Responses API: the chat model answers, and no encrypted reasoning item reaches it', async () => {
    const responses = new OpenAIResponsesModel({ model: 'o4-mini', baseURL: primaryServer.baseURL, apiKey: 'k', maxRetries: 0 });
    const chat = chatModel(backupServer, 'gpt-4o-mini', 'openai');
    const model = fallbackModel([responses, chat]);
    primaryServer.reply({
      json: {
        id: 'resp_1',
        object: 'response',
        created_at: 1,
        status: 'completed',
        model: 'o4-mini',
        error: null,
        incomplete_details: null,
        usage: { input_tokens: 5, output_tokens: 5, total_tokens: 10 },
        output: [
          { id: 'rs_1', type: 'reasoning', summary: [], encrypted_content: ENCRYPTED },
          { id: 'fc_1', type: 'function_call', status: 'completed', arguments: '{"city":"Paris"}', call_id: 'call_1', name: 'get_weather' },
        ],
      },
    });
    const first = await model.generate({ messages: [userMessage('weather in Paris?')] });
    expect(first.model).toEqual({ id: 'o4-mini' });
    const messages = afterToolCall(first);

    primaryServer.reply(overloaded);
    backupServer.reply({
      sse: [chunk({ role: 'assistant', content: 'It is ' }), chunk({ content: '21°C.' }), chunk({}, 'stop')],
    });
    const { response } = await collect(model, { messages });

    expect(response.model).toEqual({ id: 'gpt-4o-mini' });
    expect(JSON.stringify(primaryServer.last)).toContain(ENCRYPTED); // the Responses API got its own item back
    const sent = JSON.stringify(backupServer.last);
    for (const bound of [ENCRYPTED, 'rs_1', 'encrypted_content', 'reasoning']) expect(sent).not.toContain(bound);
    expect(backupServer.last.messages.map((m: { role: string }) => m.role)).toEqual(['user', 'assistant', 'tool']);
  });

  it('two models behind OpenRouter: the fallback model gets none of the first model’s reasoning_details', async () => {
    const claude = chatModel(primaryServer, 'anthropic/claude-sonnet-4.5', 'openrouter');
    const gpt = chatModel(backupServer, 'openai/gpt-5', 'openrouter');
    const model = fallbackModel([claude, gpt]);
    primaryServer.reply({
      json: completion(
        {
          content: '',
          reasoning: 'The user wants the weather.',
          reasoning_details: [
            { type: 'reasoning.text', text: 'The user wants the weather.', signature: SIGNATURE, format: 'anthropic-claude-v1', index: 0 },
          ],
          tool_calls: weatherCallWhole('call_1'),
        },
        'tool_calls',
      ),
    });
    const messages = afterToolCall(await model.generate({ messages: [userMessage('weather in Paris?')] }));
    primaryServer.reply(rateLimited, { json: completion({ content: 'It is 21°C.' }) });
    backupServer.reply({ json: completion({ content: 'It is 21°C.' }) });
    expect((await model.generate({ messages })).model).toEqual({ id: 'openai/gpt-5' });
    expect(JSON.stringify(backupServer.last)).not.toContain(SIGNATURE);
    expect(backupServer.last.messages[1].reasoning_details).toBeUndefined();
    // Back on the first model, its own reasoning_details go back unchanged.
    await model.generate({ messages });
    expect(primaryServer.last.messages[1].reasoning_details).toEqual([
      { type: 'reasoning.text', text: 'The user wants the weather.', signature: SIGNATURE, format: 'anthropic-claude-v1', index: 0 },
    ]);
  });

  it('400 is not handed on: the typed error is thrown and the fallback server receives nothing', async () => {
    primaryServer.reply({ json: { error: { message: "Invalid 'messages'", type: 'invalid_request_error' } }, status: 400 });
    const model = fallbackModel([chatModel(primaryServer, 'gpt-4o'), chatModel(backupServer, 'gpt-4o-mini')]);
    await expect(model.generate({ messages: [userMessage('hi')] })).rejects.toMatchObject({ kind: 'invalid_request' });
    expect(backupServer.received).toHaveLength(0);
  });

  it('a refused connection falls back', async () => {
    const dead = new OpenAIChatModel({
      model: 'gpt-4o',
      baseURL: 'http://127.0.0.1:1/v1',
      apiKey: 'k',
      maxRetries: 0,
      connectionRetries: 0,
    });
    backupServer.reply({ json: completion({ content: 'up' }) });
    const response = await fallbackModel([dead, chatModel(backupServer, 'gpt-4o-mini')]).generate({ messages: [userMessage('hi')] });
    expect(response.model).toEqual({ id: 'gpt-4o-mini' });
  });
});
