import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { userMessage } from '@replan/core';
import { OpenAIChatModel } from '../src/index.js';
import { FakeServer, useFakeServer } from './support/fake-server.js';
import { expectKind, failure } from './support/model-errors.js';

// Servers that are not OpenAI (Ollama, Gemini, FastAPI apps, proxies, an HTML error page, none at
// all) still give a typed `ModelError` with their real message.

const server = useFakeServer();

const model = (extra: Partial<ConstructorParameters<typeof OpenAIChatModel>[0]> = {}) =>
  new OpenAIChatModel({ model: 'gpt-4o', baseURL: server.baseURL, apiKey: 'k', maxRetries: 0, ...extra });
const req = { messages: [userMessage('hi')] };

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
