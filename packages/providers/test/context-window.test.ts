import { ConfigurationError, ModelCallError, ModelError, modelErrorOf, userMessage } from '@replan/core';
import { describe, expect, it } from 'vitest';
import { discoverContextWindow, discoverModelFromEnv, modelFromEnv, OpenAIChatModel, OpenAIResponsesModel } from '../src/index.js';
import { FakeServer, useFakeServer } from './support/fake-server.js';
import { completion } from './support/payloads.js';

const server = useFakeServer();

describe('context overflow is the core concept', () => {
  it("a provider's context overflow is core's ModelError of kind context_length", async () => {
    server.reply({
      json: {
        error: {
          message: "This model's maximum context length is 8192 tokens.",
          type: 'invalid_request_error',
          code: 'context_length_exceeded',
        },
      },
      status: 400,
    });
    const model = new OpenAIChatModel({ model: 'gpt-4o', baseURL: server.baseURL, apiKey: 'k', maxRetries: 0 });
    const error = await model.generate({ messages: [userMessage('hi')] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelError);
    expect((error as ModelError).kind).toBe('context_length');
    // Wrapped the way an agent reports a failed model call, it is still recognised.
    expect(modelErrorOf(new ModelCallError('agent', error))?.kind).toBe('context_length');
  });

  it('other provider errors are not context overflows', async () => {
    server.reply({ json: { error: { message: 'bad tool_choice', type: 'invalid_request_error' } }, status: 400 });
    const model = new OpenAIChatModel({ model: 'gpt-4o', baseURL: server.baseURL, apiKey: 'k', maxRetries: 0 });
    const error = await model.generate({ messages: [userMessage('hi')] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelError);
    expect((error as ModelError).kind).toBe('invalid_request');
  });
});

describe('contextWindow option', () => {
  it('is exposed by both models when given, absent (never guessed) when not', () => {
    const opts = { model: 'gpt-4o', baseURL: 'http://127.0.0.1:9/v1', apiKey: 'k' };
    expect(new OpenAIChatModel({ ...opts, contextWindow: 128_000 }).contextWindow).toBe(128_000);
    expect(new OpenAIResponsesModel({ ...opts, contextWindow: 200_000 }).contextWindow).toBe(200_000);
    expect(new OpenAIChatModel(opts).contextWindow).toBeUndefined();
    expect(new OpenAIResponsesModel(opts).contextWindow).toBeUndefined();
  });

  it('a window that is not a positive integer is a ConfigurationError', () => {
    const opts = { model: 'gpt-4o', baseURL: 'http://127.0.0.1:9/v1', apiKey: 'k' };
    expect(() => new OpenAIChatModel({ ...opts, contextWindow: 0 })).toThrow(ConfigurationError);
    expect(() => new OpenAIResponsesModel({ ...opts, contextWindow: 1.5 })).toThrow(/contextWindow must be a positive integer/);
  });
});

const litellmInfo = (...entries: [name: string, maxInputTokens: unknown][]) => ({
  json: {
    data: entries.map(([model_name, max_input_tokens]) => ({
      model_name,
      litellm_params: { model: `anthropic/${model_name}` },
      model_info: { max_input_tokens, max_output_tokens: 8192 },
    })),
  },
});
const openRouterModels = (...entries: [id: string, contextLength: unknown][]) => ({
  json: {
    data: entries.map(([id, context_length]) => ({ id, context_length, top_provider: { max_completion_tokens: 4096 } })),
  },
});

describe('discoverContextWindow: the window a server reports, never guessed', () => {
  it("LiteLLM: model_info.max_input_tokens of the entries named like the model (the smallest deployment's)", async () => {
    server.reply(litellmInfo(['other', 8_000], ['claude-sonnet', 200_000], ['claude-sonnet', 180_000]));
    const window = await discoverContextWindow({ baseURL: server.baseURL, model: 'claude-sonnet', apiKey: 'sk-proxy', server: 'litellm' });
    expect(window).toBe(180_000);
    expect(server.received).toHaveLength(1);
    expect(server.received[0]).toMatchObject({ method: 'GET', path: '/v1/model/info' });
    expect(server.received[0]?.headers.authorization).toBe('Bearer sk-proxy');
  });

  it("OpenRouter: context_length of the entry whose id is the model's", async () => {
    server.reply(openRouterModels(['openai/gpt-4o', 128_000], ['anthropic/claude-sonnet-4', 200_000]));
    const window = await discoverContextWindow({ baseURL: server.baseURL, model: 'anthropic/claude-sonnet-4', server: 'openrouter' });
    expect(window).toBe(200_000);
    expect(server.received[0]).toMatchObject({ method: 'GET', path: '/v1/models' });
  });

  it('a server of neither kind is asked both shapes in turn', async () => {
    server.reply({ json: { error: { message: 'Not Found' } }, status: 404 }, openRouterModels(['m', 32_768]));
    expect(await discoverContextWindow({ baseURL: server.baseURL, model: 'm' })).toBe(32_768);
    expect(server.received.map((r) => r.path)).toEqual(['/v1/model/info', '/v1/models']);
  });

  it('nothing reported for the model: undefined', async () => {
    server.reply(
      litellmInfo(['claude-sonnet', null], ['other', 100_000]),
      openRouterModels(['anthropic/claude-sonnet-4', 200_000]),
      openRouterModels(['m', 'lots'], ['n', 0]),
    );
    expect(await discoverContextWindow({ baseURL: server.baseURL, model: 'claude-sonnet', server: 'litellm' })).toBeUndefined();
    expect(await discoverContextWindow({ baseURL: server.baseURL, model: 'not-listed', server: 'openrouter' })).toBeUndefined();
    expect(await discoverContextWindow({ baseURL: server.baseURL, model: 'm', server: 'openrouter' })).toBeUndefined();
  });

  it('a 404, a body that is not JSON, a stalled or closed server: undefined, never an error', async () => {
    server.reply(
      { json: { error: { message: 'Not Found' } }, status: 404 },
      { text: '<html>proxy</html>', status: 200 },
      { sse: [], done: false, stall: true },
    );
    const ask = { baseURL: server.baseURL, model: 'claude-sonnet', server: 'litellm' as const };
    expect(await discoverContextWindow(ask)).toBeUndefined();
    expect(await discoverContextWindow(ask)).toBeUndefined();
    expect(await discoverContextWindow({ ...ask, timeoutMs: 200 })).toBeUndefined();
    const closed = await FakeServer.start();
    await closed.close();
    expect(await discoverContextWindow({ ...ask, baseURL: closed.baseURL })).toBeUndefined();
  });

  it("the caller's abort is not swallowed", async () => {
    server.reply({ sse: [], done: false, stall: true });
    const controller = new AbortController();
    const pending = discoverContextWindow({ baseURL: server.baseURL, model: 'm', server: 'litellm', signal: controller.signal });
    // Aborted once the server holds the request, so the stalled reply is used up here (an abort
    // before the request is sent, as Node 22's fetch allows, would leave it queued for the next test).
    while (server.received.length === 0) await new Promise((r) => setTimeout(r, 5));
    controller.abort(new Error('user stopped'));
    await expect(pending).rejects.toThrow('user stopped');
  });
});

describe('discoverModelFromEnv sets the reported window', () => {
  it('a Claude model behind a proxy (LiteLLM) gets max_input_tokens, and still answers', async () => {
    server.reply(litellmInfo(['claude-sonnet', 200_000]), { json: completion({ content: 'hi' }) });
    const model = await discoverModelFromEnv({ OPENAI_BASE_URL: server.baseURL, REPLAN_MODEL: 'claude-sonnet', OPENAI_API_KEY: 'k' });
    expect(model?.contextWindow).toBe(200_000);
    expect(server.received[0]?.path).toBe('/v1/model/info');
    await model?.generate({ messages: [userMessage('hi')] });
    expect(server.last.model).toBe('claude-sonnet');
  });

  it('an OpenRouter media profile reads context_length; a window given in the overrides is kept and nothing is asked', async () => {
    server.reply(openRouterModels(['qwen/qwen3-8b', 40_960]));
    const env = { OPENAI_BASE_URL: server.baseURL, REPLAN_MODEL: 'qwen/qwen3-8b' };
    expect((await discoverModelFromEnv(env, { media: 'openrouter' }))?.contextWindow).toBe(40_960);
    expect(server.received.map((r) => r.path)).toEqual(['/v1/models']);
    expect((await discoverModelFromEnv(env, { media: 'openrouter', contextWindow: 1_000 }))?.contextWindow).toBe(1_000);
    expect(server.received).toHaveLength(1);
  });

  it('a failed or empty lookup leaves the window unset and the model is still created', async () => {
    server.reply({ json: { error: { message: 'Not Found' } }, status: 404 }, litellmInfo());
    const env = { OPENAI_BASE_URL: server.baseURL, REPLAN_MODEL: 'claude-sonnet' };
    const afterNotFound = await discoverModelFromEnv(env);
    expect(afterNotFound?.model).toBe('claude-sonnet');
    expect(afterNotFound?.contextWindow).toBeUndefined();
    expect((await discoverModelFromEnv(env))?.contextWindow).toBeUndefined();
    expect(server.received).toHaveLength(2);
  });

  it('a server that is neither LiteLLM nor OpenRouter, and the sync modelFromEnv, ask nothing', async () => {
    expect((await discoverModelFromEnv({ OPENAI_BASE_URL: server.baseURL, REPLAN_MODEL: 'qwen3' }))?.contextWindow).toBeUndefined();
    expect(modelFromEnv({ OPENAI_BASE_URL: server.baseURL, REPLAN_MODEL: 'claude-sonnet' })?.contextWindow).toBeUndefined();
    expect(server.received).toEqual([]);
  });
});
