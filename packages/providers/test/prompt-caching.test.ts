import type { ModelRequest, ToolSpec } from '@replan/core';
import {
  assistantMessage,
  ConfigurationError,
  ReActAgent,
  Runner,
  systemMessage,
  toolMessage,
  userMessage,
  promptCache,
} from '@replan/core';
import { describe, expect, it } from 'vitest';
import { OpenAIChatModel, OpenAIResponsesModel } from '../src/index.js';
import { useFakeServer } from './support/fake-server.js';
import { completion, usageChunk, chunk } from './support/payloads.js';
import { collect } from './support/run.js';

const server = useFakeServer();

const chatModel = (extra: Partial<ConstructorParameters<typeof OpenAIChatModel>[0]> = {}) =>
  new OpenAIChatModel({ model: 'gpt-4o-mini', baseURL: server.baseURL, apiKey: 'k', maxRetries: 0, profile: 'openai', ...extra });

const tools: ToolSpec[] = [
  { name: 'search', description: 'Searches', parameters: { type: 'object', properties: { q: { type: 'string' } } } },
  { name: 'fetch', description: 'Fetches', parameters: { type: 'object', properties: { url: { type: 'string' } } } },
];

/** A ReAct-shaped request: instruction, objective, a tool turn, and the cache hint plan–execute sends. */
const request = (cache: ModelRequest['cache']): ModelRequest => ({
  messages: [
    systemMessage('You are a careful executor.'),
    userMessage('Objective: compare two sources.'),
    userMessage('## YOUR STEP\nFetch both.'),
    assistantMessage([{ type: 'tool_call', id: 'call_1', name: 'fetch', args: { url: 'a' } }]),
    toolMessage([{ type: 'tool_result', toolCallId: 'call_1', name: 'fetch', output: 'page a' }]),
  ],
  tools,
  ...(cache ? { cache } : {}),
});

const reply = { json: completion({ content: 'done' }) };

describe('prompt caching on Chat Completions', () => {
  it('OpenAI: prompt_cache_key and prompt_cache_retention go on the wire, messages and tools unchanged', async () => {
    server.reply(reply, reply);
    await chatModel().generate(request({ key: 'executor:s1', retention: 'long' }));
    expect(server.last.prompt_cache_key).toBe('executor:s1');
    expect(server.last.prompt_cache_retention).toBe('24h');
    expect(server.last.messages[0]).toEqual({ role: 'system', content: 'You are a careful executor.' });
    expect(server.last.tools[1].cache_control).toBeUndefined();

    await chatModel().generate(request({ retention: 'short' }));
    expect(server.last.prompt_cache_key).toBeUndefined();
    expect(server.last.prompt_cache_retention).toBe('in-memory');
  });

  it('the same fields on a stream', async () => {
    server.reply({ sse: [chunk({ role: 'assistant', content: 'done' }, 'stop'), usageChunk({ prompt_tokens: 10, completion_tokens: 1 })] });
    await collect(chatModel(), request({ key: 'planner:s1' }));
    expect(server.last.stream).toBe(true);
    expect(server.last.prompt_cache_key).toBe('planner:s1');
  });

  it('without a cache hint nothing cache-related is sent', async () => {
    server.reply(reply, reply);
    await chatModel().generate(request(undefined));
    await chatModel({ profile: 'anthropic', model: 'claude-sonnet-4' }).generate(request(undefined));
    for (const { body } of server.received) {
      expect(body.prompt_cache_key).toBeUndefined();
      expect(JSON.stringify(body)).not.toContain('cache_control');
    }
  });

  it('LiteLLM with a Claude model: cache_control breakpoints on the system message, the last tool and the last user message', async () => {
    server.reply(reply);
    const model = new OpenAIChatModel({ model: 'claude-sonnet-4-5', baseURL: server.baseURL, apiKey: 'k', maxRetries: 0 });
    expect(model.profile).toBe('anthropic');
    expect(model.promptCaching).toBe('breakpoints');
    await model.generate(request({ key: 'executor:s1' }));
    const body = server.last;
    expect(body.prompt_cache_key).toBeUndefined(); // Anthropic has no key: the breakpoints are the cache
    expect(body.messages[0]).toEqual({
      role: 'system',
      content: [{ type: 'text', text: 'You are a careful executor.', cache_control: { type: 'ephemeral' } }],
    });
    expect(body.messages[1]).toEqual({ role: 'user', content: 'Objective: compare two sources.' });
    expect(body.messages[2].content).toEqual([{ type: 'text', text: '## YOUR STEP\nFetch both.', cache_control: { type: 'ephemeral' } }]);
    expect(body.messages[4]).toEqual({ role: 'tool', tool_call_id: 'call_1', content: 'page a' }); // tool results are never marked
    expect(body.tools[0].cache_control).toBeUndefined();
    expect(body.tools[1]).toMatchObject({ type: 'function', function: { name: 'fetch' }, cache_control: { type: 'ephemeral' } });
  });

  it('OpenRouter with a Claude model: breakpoints with the long ttl; with another model, nothing', async () => {
    server.reply(reply, reply);
    await chatModel({ profile: 'openrouter', model: 'anthropic/claude-sonnet-4' }).generate(request({ key: 'k', retention: 'long' }));
    expect(server.last.messages[0].content[0].cache_control).toEqual({ type: 'ephemeral', ttl: '1h' });
    expect(server.last.tools[1].cache_control).toEqual({ type: 'ephemeral', ttl: '1h' });
    await chatModel({ profile: 'openrouter', model: 'meta-llama/llama-3.3-70b' }).generate(request({ key: 'k' }));
    expect(server.last.prompt_cache_key).toBeUndefined();
    expect(JSON.stringify(server.last)).not.toContain('cache_control');
  });

  it('an unknown server gets nothing unless promptCaching says so; settings.extra still wins', async () => {
    server.reply(reply, reply, reply);
    const plain = { model: 'llama3.1', profile: 'plain' as const };
    await chatModel(plain).generate(request({ key: 'k' }));
    expect(server.last.prompt_cache_key).toBeUndefined();
    await chatModel({ ...plain, promptCaching: 'key' }).generate(request({ key: 'k' }));
    expect(server.last.prompt_cache_key).toBe('k');
    await chatModel({ settings: { extra: { prompt_cache_key: 'mine' } } }).generate(request({ key: 'k' }));
    expect(server.last.prompt_cache_key).toBe('mine');
  });

  it('a wrong promptCaching is a ConfigurationError', () => {
    expect(() => chatModel({ promptCaching: 'always' as never })).toThrow(ConfigurationError);
    expect(() => new OpenAIResponsesModel({ model: 'o4-mini', apiKey: 'k', promptCaching: 'breakpoints' as never })).toThrow(
      /promptCaching must be 'key' or 'none'/,
    );
  });
});

describe('cache usage', () => {
  it('LiteLLM (Anthropic): cached_tokens and cache_creation_input_tokens', async () => {
    const usage = {
      prompt_tokens: 3000,
      completion_tokens: 20,
      prompt_tokens_details: { cached_tokens: 1800 },
      cache_creation_input_tokens: 1100,
    };
    server.reply({ json: completion({ content: 'ok' }, 'stop', usage) });
    const response = await chatModel({ profile: 'anthropic', model: 'claude-sonnet-4' }).generate(request({}));
    expect(response.usage).toEqual({ inputTokens: 3000, outputTokens: 20, cachedTokens: 1800, cacheWriteTokens: 1100 });
  });

  it('OpenRouter: prompt_tokens_details.cache_write_tokens, also on a stream', async () => {
    const usage = { prompt_tokens: 194, completion_tokens: 2, prompt_tokens_details: { cached_tokens: 0, cache_write_tokens: 100 } };
    server.reply({ sse: [chunk({ role: 'assistant', content: 'ok' }, 'stop'), usageChunk(usage)] });
    const { response } = await collect(chatModel({ profile: 'openrouter', model: 'anthropic/claude-sonnet-4' }), request({}));
    expect(response.usage).toEqual({ inputTokens: 194, outputTokens: 2, cachedTokens: 0, cacheWriteTokens: 100 });
  });
});

describe('a run through a proxy that reports cache reads and writes', () => {
  it('the agent sends its key as breakpoints, and RunResult.cost prices reads and writes at their own rates', async () => {
    const usage = {
      prompt_tokens: 10_000,
      completion_tokens: 1_000,
      prompt_tokens_details: { cached_tokens: 6_000 },
      cache_creation_input_tokens: 3_000,
    };
    server.reply({ json: completion({ content: 'done' }, 'stop', usage) });
    const model = new OpenAIChatModel({ model: 'claude-sonnet-4-5', baseURL: server.baseURL, apiKey: 'k', maxRetries: 0 });
    const agent = new ReActAgent({ name: 'writer', model, instruction: 'Write.', middleware: [promptCache({ retention: 'long' })] });
    const prices = {
      'claude-sonnet-4-5': { inputPerMillion: 3, outputPerMillion: 15, cachedInputPerMillion: 0.3, cacheWritePerMillion: 6 },
    };
    const result = await new Runner({ agent, appName: 'x', prices }).run({ userId: 'u', input: 'go' }).result();
    expect(server.last.messages[0].content[0].cache_control).toEqual({ type: 'ephemeral', ttl: '1h' });
    expect(result.usage).toMatchObject({ inputTokens: 10_000, cachedTokens: 6_000, cacheWriteTokens: 3_000 });
    // (1 000 × 3 + 6 000 × 0.3 + 3 000 × 6 + 1 000 × 15) / 1e6
    expect(result.cost).toBeCloseTo(0.0378, 12);
  });
});

describe('prompt caching on the Responses API', () => {
  const responsesModel = (extra: Partial<ConstructorParameters<typeof OpenAIResponsesModel>[0]> = {}) =>
    new OpenAIResponsesModel({ model: 'o4-mini', baseURL: server.baseURL, apiKey: 'k', maxRetries: 0, ...extra });
  const answer = {
    json: {
      id: 'resp_1',
      object: 'response',
      created_at: 1,
      status: 'completed',
      model: 'o4-mini',
      output: [
        {
          id: 'msg_1',
          type: 'message',
          role: 'assistant',
          status: 'completed',
          content: [{ type: 'output_text', text: 'ok', annotations: [] }],
        },
      ],
      usage: {
        input_tokens: 2048,
        input_tokens_details: { cached_tokens: 1024 },
        output_tokens: 3,
        output_tokens_details: { reasoning_tokens: 0 },
      },
      error: null,
      incomplete_details: null,
    },
  };

  it('sends prompt_cache_key and prompt_cache_retention, and reads cached tokens', async () => {
    server.reply(answer, answer, answer);
    const response = await responsesModel().generate(request({ key: 'replanner:s1', retention: 'long' }));
    expect(server.last.prompt_cache_key).toBe('replanner:s1');
    expect(server.last.prompt_cache_retention).toBe('24h');
    expect(response.usage).toMatchObject({ inputTokens: 2048, cachedTokens: 1024 });

    await responsesModel().generate(request(undefined));
    expect(server.last.prompt_cache_key).toBeUndefined();
    expect(server.last.prompt_cache_retention).toBeUndefined();

    await responsesModel({ promptCaching: 'none' }).generate(request({ key: 'k', retention: 'short' }));
    expect(server.last.prompt_cache_key).toBeUndefined();
    expect(server.last.prompt_cache_retention).toBeUndefined();
  });
});
