import {
  ConfigurationError,
  ContextLengthError as CoreContextLengthError,
  isContextLengthError,
  ModelCallError,
  userMessage,
} from '@replan/core';
import { describe, expect, it } from 'vitest';
import { ContextLengthError, OpenAIChatModel, OpenAIResponsesModel, ProviderError } from '../src/index.js';
import { useFakeServer } from './support/fake-server.js';

const server = useFakeServer();

describe('context overflow is the core concept', () => {
  it("a provider's ContextLengthError is a ProviderError and an instance of core's ContextLengthError", async () => {
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
    expect(error).toBeInstanceOf(ContextLengthError);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toBeInstanceOf(CoreContextLengthError);
    // Wrapped the way an agent reports a failed model call, it is still recognised.
    expect(isContextLengthError(new ModelCallError('agent', error))).toBe(true);
  });

  it('other provider errors are not context overflows', async () => {
    server.reply({ json: { error: { message: 'bad tool_choice', type: 'invalid_request_error' } }, status: 400 });
    const model = new OpenAIChatModel({ model: 'gpt-4o', baseURL: server.baseURL, apiKey: 'k', maxRetries: 0 });
    const error = await model.generate({ messages: [userMessage('hi')] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).not.toBeInstanceOf(CoreContextLengthError);
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
