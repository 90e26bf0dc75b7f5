import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { ModelError, type ModelErrorKind, userMessage } from '@replan/core';
import { OpenAIChatModel, OpenAIResponsesModel } from '../src/index.js';
import { FakeServer, useFakeServer } from './support/fake-server.js';
import { chunk, completion } from './support/payloads.js';
import { collect } from './support/run.js';

const server = useFakeServer();

const model = (extra: Partial<ConstructorParameters<typeof OpenAIChatModel>[0]> = {}) =>
  new OpenAIChatModel({ model: 'gpt-4o', baseURL: server.baseURL, apiKey: 'k', maxRetries: 0, ...extra });
const req = { messages: [userMessage('hi')] };

async function failure(promise: Promise<unknown>): Promise<ModelError> {
  try {
    await promise;
  } catch (error) {
    return error as ModelError;
  }
  throw new Error('expected a failure');
}

/** The call failed with a `ModelError` of this kind. */
function expectKind(error: unknown, kind: ModelErrorKind): void {
  expect(error).toBeInstanceOf(ModelError);
  expect((error as ModelError).kind).toBe(kind);
}

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

describe('error bodies that are not OpenAI-shaped', () => {
  const cases: [string, { json?: unknown; text?: string }, string][] = [
    ['a bare {message}', { json: { message: 'model "llama9" not found, try pulling it first' } }, 'model "llama9" not found'],
    ['{error: "text"} (Ollama)', { json: { error: 'model "llama9" not found, try pulling it first' } }, 'model "llama9" not found'],
    [
      'an array',
      { json: [{ error: { code: 404, message: 'models/gemini-9 is not found for API version v1beta', status: 'NOT_FOUND' } }] },
      'models/gemini-9 is not found',
    ],
    [
      "FastAPI's {detail}",
      { json: { detail: [{ loc: ['body', 'messages'], msg: 'field required', type: 'value_error.missing' }] } },
      'field required',
    ],
    ['plain text', { text: 'upstream model not found' }, 'upstream model not found'],
  ];
  for (const [name, body, expected] of cases)
    it(`keeps the real message from ${name}`, async () => {
      server.reply(body.text !== undefined ? { text: body.text, status: 404 } : { json: body.json, status: 404 });
      const error = await failure(model().generate(req));
      expectKind(error, 'invalid_request');
      expect(error.providerMessage).toContain(expected);
      expect(error.message).toContain(expected);
    });

  it('a 500 is retried, then a retryable server ModelError with the HTML page text', async () => {
    const page = {
      text: '<html><head><title>502 Bad Gateway</title></head><body><h1>502 Bad Gateway</h1></body></html>',
      status: 500,
      headers: { 'content-type': 'text/html', 'retry-after-ms': '5' },
    };
    server.reply(page, page);
    const error = await failure(model({ maxRetries: 1 }).generate(req));
    expect(server.received).toHaveLength(2);
    expectKind(error, 'server');
    expect(error.status).toBe(500);
    expect(error.retryable).toBe(true);
    expect(error.providerMessage).toContain('502 Bad Gateway');
  });

  it('a 200 carrying {error} (proxies) is a ModelError', async () => {
    server.reply({ json: { error: { message: 'Rate limit exceeded: free-models-per-day', code: 429 } } });
    const error = await failure(model().generate(req));
    expectKind(error, 'rate_limit');
    expect(error.providerMessage).toContain('free-models-per-day');
  });

  it("a user's own client still gives typed errors (from the OpenAI-shaped part it keeps)", async () => {
    const client = new OpenAI({ apiKey: 'k', baseURL: server.baseURL, maxRetries: 0 });
    server.reply({ json: { error: { message: 'max context length exceeded', code: 'context_length_exceeded' } }, status: 400 });
    const error = await failure(new OpenAIChatModel({ model: 'gpt-4o', client }).generate(req));
    expectKind(error, 'context_length');
  });

  it('a refused connection is a connection ModelError without status', async () => {
    const closed = await FakeServer.start();
    const url = closed.baseURL;
    await closed.close();
    const error = await failure(new OpenAIChatModel({ model: 'm', baseURL: url, apiKey: 'k', maxRetries: 0 }).generate(req));
    expectKind(error, 'connection');
    expect(error.status).toBeUndefined();
    expect(error.retryable).toBe(true);
    expect(error.message).toMatch(/connection/i);
    expect(error.message).toContain('check baseURL');
  });
});

describe('errors in a stream', () => {
  it('an {"error": …} event midway is a ModelError keeping the partial output', async () => {
    server.reply({
      sse: [
        chunk({ role: 'assistant', reasoning_content: 'Thinking' }),
        chunk({ content: 'Partial ans' }),
        { error: { message: 'Upstream provider overloaded', code: 502 } },
        chunk({ content: 'never seen' }),
      ],
    });
    const error = await failure(collect(model(), req));
    expectKind(error, 'server');
    expect(error.status).toBe(502);
    expect(error.providerMessage).toBe('Upstream provider overloaded');
    expect(error.partial?.content).toEqual([
      { type: 'reasoning', reasoning: 'Thinking' },
      { type: 'text', text: 'Partial ans' },
    ]);
  });

  it("OpenRouter's mid-stream error chunk (finish_reason error) with a rate limit", async () => {
    server.reply({
      sse: [
        chunk({ content: 'Hel' }),
        { ...chunk({ content: '' }, 'error'), error: { code: 429, message: 'Provider returned error: rate-limited upstream' } },
      ],
    });
    const error = await failure(collect(model(), req));
    expectKind(error, 'rate_limit');
    expect(error.partial?.content).toEqual([{ type: 'text', text: 'Hel' }]);
  });

  it('a context-length error event midway (no status) is context_length', async () => {
    server.reply({
      sse: [chunk({ content: '' }), { error: { message: 'context_length_exceeded: input is too long', type: 'invalid_request_error' } }],
    });
    expectKind(await failure(collect(model(), req)), 'context_length');
  });

  it('a stalled stream is cut by the idle timeout, keeping what arrived', async () => {
    server.reply({
      sse: [
        chunk({ role: 'assistant', content: 'So far' }),
        chunk({ tool_calls: [{ index: 0, id: 'c1', type: 'function', function: { name: 'f', arguments: '{"a"' } }] }),
      ],
      stall: true,
    });
    const started = Date.now();
    const error = await failure(collect(model({ idleTimeoutMs: 150 }), req));
    expect(Date.now() - started).toBeLessThan(3000);
    expectKind(error, 'timeout');
    expect(error.retryable).toBe(true);
    expect(error.message).toContain('150 ms');
    expect(error.partial?.content[0]).toEqual({ type: 'text', text: 'So far' });
    expect(error.partial?.content[1]).toMatchObject({ type: 'tool_call', id: 'c1', name: 'f', rawArgs: '{"a"' });
  });

  it('a stream stalled before its first chunk is cut too', async () => {
    server.reply({ sse: [], stall: true });
    expectKind(await failure(collect(model({ idleTimeoutMs: 100 }), req)), 'timeout');
  });

  it('a chunk that is not JSON is an unknown ModelError (retryable)', async () => {
    server.reply({ sse: [chunk({ content: 'a' }), 'data: {not json\n\n'] });
    const error = await failure(collect(model(), req));
    expectKind(error, 'unknown');
    expect(error.message).toMatch(/invalid JSON/);
    expect(error.partial?.content).toEqual([{ type: 'text', text: 'a' }]);
  });

  it('an HTTP error before the stream starts is typed the same way', async () => {
    server.reply({ json: { error: { message: 'Incorrect API key', code: 'invalid_api_key' } }, status: 401 });
    expectKind(await failure(collect(model(), req)), 'auth');
  });
});
