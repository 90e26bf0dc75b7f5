import { ConfigurationError } from '@replan/core';
import { describe, expect, it } from 'vitest';
import { modelFromEnv, OpenAIChatModel } from '../src/index.js';
import { detectProfile } from '../src/profiles/provider-profile.js';

describe('detectProfile', () => {
  const cases: [string | undefined, string, string][] = [
    [undefined, 'gpt-4o-mini', 'openai'],
    ['https://api.openai.com/v1', 'o3', 'openai'],
    ['https://openrouter.ai/api/v1', 'anthropic/claude-sonnet-4', 'openrouter'],
    ['https://api.deepseek.com', 'deepseek-chat', 'deepseek'],
    ['https://generativelanguage.googleapis.com/v1beta/openai/', 'gemini-2.5-flash', 'gemini'],
    ['http://localhost:4000', 'claude-3-7-sonnet', 'anthropic'],
    ['http://localhost:4000', 'bedrock/anthropic.claude-v2', 'anthropic'],
    ['http://localhost:4000', 'vertex_ai/gemini-2.5-pro', 'gemini'],
    ['http://localhost:11434/v1', 'deepseek-r1:14b', 'deepseek'],
    ['http://localhost:11434/v1', 'llama3.1', 'plain'],
    ['http://localhost:8000/v1', 'Qwen/Qwen3-8B', 'plain'],
  ];
  for (const [baseURL, model, expected] of cases)
    it(`${baseURL ?? '(OpenAI)'} + ${model} → ${expected}`, () => expect(detectProfile(baseURL, model)).toBe(expected));

  it('is overridable', () => {
    const model = new OpenAIChatModel({ model: 'my-proxy-alias', baseURL: 'http://localhost:4000', apiKey: 'k', profile: 'anthropic' });
    expect(model.profile).toBe('anthropic');
    expect(model.id).toBe('my-proxy-alias');
  });
});

describe('modelFromEnv', () => {
  it('is undefined without OPENAI_API_KEY or OPENAI_BASE_URL', () => {
    expect(modelFromEnv({})).toBeUndefined();
  });

  it('uses REPLAN_MODEL (default gpt-4o-mini) and the base URL', () => {
    expect(modelFromEnv({ OPENAI_API_KEY: 'sk-x' })?.model).toBe('gpt-4o-mini');
    const local = modelFromEnv({ OPENAI_BASE_URL: 'http://localhost:11434/v1', REPLAN_MODEL: 'qwen3:8b' });
    expect(local?.model).toBe('qwen3:8b');
    expect(local?.profile).toBe('plain');
    expect(local?.client.baseURL).toBe('http://localhost:11434/v1');
    expect(
      modelFromEnv({ OPENAI_BASE_URL: 'http://localhost:4000', REPLAN_MODEL: 'alias', REPLAN_PROVIDER_PROFILE: 'gemini' })?.profile,
    ).toBe('gemini');
  });

  it('a model without any key or base URL fails with a clear configuration error', () => {
    const saved = { key: process.env.OPENAI_API_KEY, url: process.env.OPENAI_BASE_URL };
    delete process.env.OPENAI_API_KEY;
    delete process.env.OPENAI_BASE_URL;
    try {
      expect(() => new OpenAIChatModel({ model: 'gpt-4o' })).toThrow(ConfigurationError);
    } finally {
      if (saved.key !== undefined) process.env.OPENAI_API_KEY = saved.key;
      if (saved.url !== undefined) process.env.OPENAI_BASE_URL = saved.url;
    }
  });
});
