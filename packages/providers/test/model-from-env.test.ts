import { ConfigurationError, userMessage } from '@replan/core';
import { describe, expect, it } from 'vitest';
import { discoverModelFromEnv, modelFromEnv } from '../src/index.js';
import { FakeServer, useFakeServer } from './support/fake-server.js';
import { completion } from './support/payloads.js';

const server = useFakeServer();
const modelList = (...ids: string[]) => ({
  json: { object: 'list', data: ids.map((id) => ({ id, object: 'model', created: 0, owned_by: 'me' })) },
});

describe('OPENAI_BASE_URL without REPLAN_MODEL (issue 10)', () => {
  it('modelFromEnv() refuses to guess a model name for another server: ConfigurationError naming the URL and the fix', () => {
    const env = { OPENAI_BASE_URL: server.baseURL };
    expect(() => modelFromEnv(env)).toThrow(ConfigurationError);
    expect(() => modelFromEnv(env)).toThrow(`OPENAI_BASE_URL is set (${server.baseURL}) but REPLAN_MODEL is not`);
    expect(() => modelFromEnv({ ...env, REPLAN_MODEL: '' })).toThrow(/set REPLAN_MODEL .* discoverModelFromEnv/);
    expect(server.received).toEqual([]); // nothing was sent, least of all a request for gpt-4o-mini
    // A model named by the caller or REPLAN_MODEL is used as before; OpenAI itself keeps its default.
    expect(modelFromEnv(env, { model: 'mine' })?.model).toBe('mine');
    expect(modelFromEnv({ ...env, REPLAN_MODEL: 'qwen3' })?.model).toBe('qwen3');
    expect(modelFromEnv({ OPENAI_API_KEY: 'sk-x' })?.model).toBe('gpt-4o-mini');
  });

  it('discoverModelFromEnv() uses the only model the server lists, and that model answers', async () => {
    server.reply(modelList('Qwen/Qwen3-8B'), { json: completion({ content: 'hi' }) });
    const model = await discoverModelFromEnv({ OPENAI_BASE_URL: server.baseURL });
    expect(model?.model).toBe('Qwen/Qwen3-8B');
    expect(server.received[0]).toMatchObject({ method: 'GET', path: '/v1/models' });
    await model?.generate({ messages: [userMessage('hi')] });
    expect(server.last.model).toBe('Qwen/Qwen3-8B');
  });

  it('discoverModelFromEnv() with several models or none: ConfigurationError listing them', async () => {
    server.reply(modelList('a', 'b'), modelList());
    const env = { OPENAI_BASE_URL: server.baseURL };
    await expect(discoverModelFromEnv(env)).rejects.toThrow(/the server lists 2 models: a, b\. Set REPLAN_MODEL/);
    await expect(discoverModelFromEnv(env)).rejects.toThrow(/the server lists 0 models\. Set REPLAN_MODEL/);
  });

  it('discoverModelFromEnv() with an unreachable server: ConfigurationError naming the URL it tried', async () => {
    const closed = await FakeServer.start();
    await closed.close();
    const error = await discoverModelFromEnv({ OPENAI_BASE_URL: closed.baseURL }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigurationError);
    expect((error as Error).message).toContain(`GET ${closed.baseURL}/models`);
    expect((error as Error).message).toMatch(/ECONNREFUSED/);
  });

  it('discoverModelFromEnv() asks nothing when the model is named, and is undefined without any setting', async () => {
    expect((await discoverModelFromEnv({ OPENAI_BASE_URL: server.baseURL, REPLAN_MODEL: 'x' }))?.model).toBe('x');
    expect(await discoverModelFromEnv({})).toBeUndefined();
    expect(server.received).toEqual([]);
  });
});
