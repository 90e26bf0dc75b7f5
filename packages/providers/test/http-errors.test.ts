import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { userMessage } from '@replan/core';
import { OpenAIChatModel, OpenAIResponsesModel } from '../src/index.js';
import { useFakeServer } from './support/fake-server.js';
import { expectKind, failure } from './support/model-errors.js';
import { completion } from './support/payloads.js';

// How HTTP failures of both APIs map to `ModelError` kinds: rate limits and quotas, context length,
// auth, and every kind from the wire. Odd bodies: error-bodies.test.ts; failures mid-stream: stream-errors.test.ts.

const server = useFakeServer();

const model = (extra: Partial<ConstructorParameters<typeof OpenAIChatModel>[0]> = {}) =>
  new OpenAIChatModel({ model: 'gpt-4o', baseURL: server.baseURL, apiKey: 'k', maxRetries: 0, ...extra });
const req = { messages: [userMessage('hi')] };

describe('HTTP 429', () => {
  it('a rate limit is retried by the SDK (maxRetries), then a rate_limit ModelError with retryAfterMs', async () => {
    const body = {
      error: {
        message: 'Rate limit reached for gpt-4o on requests per min (RPM): Limit 3. Please try again in 20ms.',
        type: 'requests',
        code: 'rate_limit_exceeded',
      },
    };
    server.reply(
      { json: body, status: 429, headers: { 'retry-after-ms': '10' } },
      { json: body, status: 429, headers: { 'retry-after-ms': '10' } },
    );
    const error = await failure(model({ maxRetries: 1 }).generate(req));
    expect(server.received).toHaveLength(2);
    expectKind(error, 'rate_limit');
    expect(error.retryAfterMs).toBe(10);
    expect(error.retryable).toBe(true);
    expect(error.status).toBe(429);
    expect(error.providerMessage).toContain('Rate limit reached for gpt-4o');
  });

  it('a rate limit that clears is invisible', async () => {
    server.reply(
      { json: { error: { message: 'slow down', code: 'rate_limit_exceeded' } }, status: 429, headers: { 'retry-after': '0' } },
      { json: completion({ content: 'fine' }) },
    );
    const response = await model({ maxRetries: 2 }).generate(req);
    expect(response.message.content).toEqual([{ type: 'text', text: 'fine' }]);
    expect(server.received).toHaveLength(2);
  });

  it('insufficient_quota is not retried: a rate_limit ModelError with retryable false', async () => {
    server.reply({
      json: {
        error: {
          message: 'You exceeded your current quota, please check your plan and billing details.',
          type: 'insufficient_quota',
          param: null,
          code: 'insufficient_quota',
        },
      },
      status: 429,
    });
    const error = await failure(model({ maxRetries: 3 }).generate(req));
    expect(server.received).toHaveLength(1);
    expectKind(error, 'rate_limit');
    expect(error.retryable).toBe(false);
    expect(error.message).toContain('You exceeded your current quota');
    expect(error.message).toContain('check the plan and billing');
  });

  it('a request larger than the TPM limit is not retried: an invalid_request ModelError', async () => {
    server.reply({
      json: {
        error: {
          message:
            'Request too large for gpt-4o in organization org-x on tokens per min (TPM): Limit 30000, Requested 52000. The input or output tokens must be reduced in order to run successfully.',
          type: 'tokens',
          code: 'rate_limit_exceeded',
        },
      },
      status: 429,
    });
    const error = await failure(model({ maxRetries: 3 }).generate(req));
    expect(server.received).toHaveLength(1);
    expectKind(error, 'invalid_request');
  });

  it("Google's array body with RetryInfo is a rate limit with retryAfter, even worded like billing", async () => {
    server.reply({
      json: [
        {
          error: {
            code: 429,
            message: 'You exceeded your current quota, please check your plan and billing details.',
            status: 'RESOURCE_EXHAUSTED',
            details: [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '17s' }],
          },
        },
      ],
      status: 429,
    });
    const error = await failure(model().generate(req));
    expectKind(error, 'rate_limit');
    expect(error.retryAfterMs).toBe(17_000);
    expect(error.code).toBe('RESOURCE_EXHAUSTED');
    expect(error.providerMessage).toContain('You exceeded your current quota');
  });

  it('a 402 "Insufficient Balance" (DeepSeek) is a rate_limit that is not retried', async () => {
    server.reply({
      json: { error: { message: 'Insufficient Balance', type: 'unknown_error', param: null, code: 'invalid_request_error' } },
      status: 402,
    });
    const error = await failure(model().generate(req));
    expectKind(error, 'rate_limit');
    expect(error.retryable).toBe(false);
  });
});

describe('HTTP 400 and context length', () => {
  it('context_length_exceeded (OpenAI)', async () => {
    server.reply({
      json: {
        error: {
          message: "This model's maximum context length is 128000 tokens. However, your messages resulted in 130000 tokens.",
          type: 'invalid_request_error',
          param: 'messages',
          code: 'context_length_exceeded',
        },
      },
      status: 400,
    });
    const error = await failure(model().generate(req));
    expectKind(error, 'context_length');
    expect(error.code).toBe('context_length_exceeded');
    expect(error.retryable).toBe(false);
  });

  it('"maximum context length" in a bare vLLM body', async () => {
    server.reply({
      json: {
        object: 'error',
        message: "This model's maximum context length is 4096 tokens. However, you requested 5000 tokens.",
        type: 'BadRequestError',
        param: null,
        code: 400,
      },
      status: 400,
    });
    const error = await failure(model().generate(req));
    expectKind(error, 'context_length');
    expect(error.providerMessage).toContain('maximum context length is 4096');
  });

  it('LiteLLM\'s envelope around Anthropic\'s "prompt is too long"', async () => {
    server.reply({
      json: {
        error: {
          message:
            'litellm.BadRequestError: AnthropicException - {"type":"error","error":{"type":"invalid_request_error","message":"prompt is too long: 210000 tokens > 200000 maximum"}}',
          type: null,
          param: null,
          code: '400',
        },
      },
      status: 400,
    });
    const error = await failure(model().generate(req));
    expectKind(error, 'context_length');
    expect(error.providerMessage).toContain('prompt is too long: 210000 tokens');
  });

  it('any other 400 is invalid_request with the server message', async () => {
    server.reply({
      json: { error: { message: "Invalid value for 'tool_choice'", type: 'invalid_request_error', param: 'tool_choice', code: null } },
      status: 400,
    });
    const error = await failure(model().generate(req));
    expectKind(error, 'invalid_request');
    expect(error.message).toContain("Invalid value for 'tool_choice'");
    expect(error.message).toContain('gpt-4o');
  });

  it('401 is auth', async () => {
    server.reply({
      json: { error: { message: 'Incorrect API key provided: sk-xx.', type: 'invalid_request_error', code: 'invalid_api_key' } },
      status: 401,
    });
    const error = await failure(model().generate(req));
    expectKind(error, 'auth');
    expect(error.providerMessage).toBe('Incorrect API key provided: sk-xx.');
  });
});

const responsesModel = () => new OpenAIResponsesModel({ model: 'gpt-4o', baseURL: server.baseURL, apiKey: 'k', maxRetries: 0 });

describe.each([
  ['Chat Completions', model],
  ['Responses', responsesModel],
] as const)('every kind, from the wire (%s)', (_api, make) => {
  it.each([
    [429, { error: { message: 'Rate limit reached', code: 'rate_limit_exceeded' } }, 'rate_limit', true],
    [429, { error: { message: 'You exceeded your current quota', code: 'insufficient_quota' } }, 'rate_limit', false],
    [
      400,
      { error: { message: "This model's maximum context length is 8192 tokens.", code: 'context_length_exceeded' } },
      'context_length',
      false,
    ],
    [401, { error: { message: 'Incorrect API key provided', code: 'invalid_api_key' } }, 'auth', false],
    [403, { error: { message: 'Project does not have access to model gpt-4o', code: 'model_not_found' } }, 'auth', false],
    [422, { error: { message: "Invalid value for 'tool_choice'", type: 'invalid_request_error' } }, 'invalid_request', false],
    [408, { error: { message: 'Request timed out' } }, 'timeout', true],
    [504, { error: { message: 'Gateway timeout' } }, 'timeout', true],
    [503, { error: { message: 'The server is overloaded', type: 'server_error' } }, 'overloaded', true],
    [529, { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }, 'overloaded', true],
    [
      400,
      {
        error: {
          message: "The response was filtered due to the prompt triggering Azure OpenAI's content management policy.",
          code: 'content_filter',
        },
      },
      'content_filter',
      false,
    ],
    [500, { error: { message: 'The server had an error processing your request.' } }, 'server', true],
  ] as const)(
    'HTTP %i with %j is kind %s (retryable: %s), keeping the status and the provider error as cause',
    async (status, json, kind, retryable) => {
      server.reply({ json, status });
      const error = await failure(make().generate(req));
      expectKind(error, kind);
      expect([error.status, error.retryable, error.model, error.url]).toEqual([status, retryable, 'gpt-4o', server.baseURL]);
      expect(error.cause).toBeInstanceOf(OpenAI.APIError);
    },
  );
});
