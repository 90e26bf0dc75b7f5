import { ModelError, type ModelRetry, ReActAgent, Runner, userMessage } from '@replan/core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { OpenAIChatModel, OpenAIResponsesModel } from '../src/index.js';
import { FakeServer, useFakeServer } from './support/fake-server.js';
import { completion } from './support/payloads.js';
import { collect } from './support/run.js';

const server = useFakeServer();
const req = { messages: [userMessage('hi')] };

async function failure(promise: Promise<unknown>): Promise<ModelError> {
  try {
    await promise;
  } catch (error) {
    return error as ModelError;
  }
  throw new Error('expected a failure');
}

/** The base URL of a port nothing listens on. */
async function closedPort(): Promise<string> {
  const closed = await FakeServer.start();
  await closed.close();
  return closed.baseURL;
}

afterEach(() => vi.restoreAllMocks());

describe('a server that cannot be reached (issue 10)', () => {
  it('fails fast with a connection ModelError naming the base URL and the model; its one retry is reported', async () => {
    const url = await closedPort();
    const retries: ModelRetry[] = [];
    const model = new OpenAIChatModel({ model: 'qwen3', baseURL: url, apiKey: 'k', onRetry: (r) => retries.push(r) });
    const error = await failure(model.generate(req));
    expect(error).toBeInstanceOf(ModelError);
    expect(error.kind).toBe('connection');
    expect(error.retryable).toBe(true);
    expect(error.url).toBe(url);
    expect(error.attempts).toBe(2);
    expect(error.message).toContain(`model "qwen3" at ${url} failed after 2 attempts`);
    expect(error.message).toMatch(/ECONNREFUSED/);
    expect(error.message).toContain('check baseURL / OPENAI_BASE_URL');
    // One retry by default, after about half a second: not the SDK's silent backoff.
    expect(retries).toHaveLength(1);
    expect(retries[0]).toMatchObject({ attempt: 1, maxRetries: 1, error: { kind: 'connection', model: 'qwen3', url } });
    expect(retries[0]?.delayMs).toBeLessThanOrEqual(500);
    expect(retries[0]?.error).toBeInstanceOf(ModelError);
  });

  it('a ReAct run on it ends failed, its error naming the server, after one reported retry', async () => {
    const url = await closedPort();
    const retries: ModelRetry[] = [];
    const agent = new ReActAgent({
      name: 'assistant',
      model: new OpenAIChatModel({ model: 'qwen3', baseURL: url, apiKey: 'k', onRetry: (r) => retries.push(r) }),
    });
    const run = new Runner({ agent, appName: 'retries' }).run({ userId: 'u', input: 'hi' });
    for await (const _event of run);
    const result = await run.result();
    expect(result.status).toBe('failed');
    expect(result.error?.message).toContain(`model "qwen3" at ${url} failed after 2 attempts`);
    expect(retries).toHaveLength(1);
  });

  it('streams and the Responses API fail the same way', async () => {
    const url = await closedPort();
    const quiet = { baseURL: url, apiKey: 'k', connectionRetries: 0, onRetry: () => {} };
    const streamed = await failure(collect(new OpenAIChatModel({ model: 'm', ...quiet }), req));
    expect(streamed).toMatchObject({ kind: 'connection' });
    expect(streamed.message).toContain(`model "m" at ${url} failed`);
    const responses = await failure(new OpenAIResponsesModel({ model: 'r', ...quiet }).generate(req));
    expect(responses).toMatchObject({ kind: 'connection' });
    expect(responses.message).toContain(`model "r" at ${url} failed`);
  });

  it('without onRetry, each retry is one console.warn line naming the model, the server and the wait', async () => {
    const url = await closedPort();
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    await failure(new OpenAIChatModel({ model: 'm', baseURL: url, apiKey: 'k' }).generate(req));
    expect(warn).toHaveBeenCalledTimes(1);
    expect(String(warn.mock.calls[0]?.[0])).toMatch(
      new RegExp(`^replan: model "m" at ${url.replace(/[.:/]/g, '\\$&')} failed \\(Connection error.*\\); retry 1/1 in 0\\.\\ds$`),
    );
  });
});

describe('retries of HTTP failures', () => {
  const page = { text: 'upstream down', status: 503, headers: { 'retry-after-ms': '5' } };

  it('a 503 is retried maxRetries times, each retry reported with the retry-after wait, then names its attempts', async () => {
    server.reply(page, page, page);
    const retries: ModelRetry[] = [];
    const model = new OpenAIChatModel({ model: 'm', baseURL: server.baseURL, apiKey: 'k', onRetry: (r) => retries.push(r) });
    const error = await failure(model.generate(req));
    expect(server.received).toHaveLength(3);
    expect(retries.map((r) => [r.attempt, r.maxRetries, r.delayMs, r.error.status])).toEqual([
      [1, 2, 5, 503],
      [2, 2, 5, 503],
    ]);
    expect(error.status).toBe(503);
    expect(error.attempts).toBe(3);
    expect(error.message).toContain(`model "m" at ${server.baseURL} failed (HTTP 503) after 3 attempts: upstream down`);
  });

  it('a failure that clears is answered, its retry still reported', async () => {
    server.reply(page, { json: completion({ content: 'fine' }) });
    const retries: ModelRetry[] = [];
    const response = await new OpenAIChatModel({
      model: 'm',
      baseURL: server.baseURL,
      apiKey: 'k',
      onRetry: (r) => retries.push(r),
    }).generate(req);
    expect(response.message.content).toEqual([{ type: 'text', text: 'fine' }]);
    expect(retries).toHaveLength(1);
  });

  it('x-should-retry: false from the server is obeyed', async () => {
    server.reply({ ...page, headers: { 'x-should-retry': 'false' } });
    const retries: ModelRetry[] = [];
    const error = await failure(
      new OpenAIChatModel({ model: 'm', baseURL: server.baseURL, apiKey: 'k', onRetry: (r) => retries.push(r) }).generate(req),
    );
    expect(server.received).toHaveLength(1);
    expect(retries).toEqual([]);
    expect(error.attempts).toBe(1);
  });

  it('an abort during the wait ends the call at once, with no further request', async () => {
    server.reply({ ...page, headers: { 'retry-after': '30' } });
    const controller = new AbortController();
    const model = new OpenAIChatModel({ model: 'm', baseURL: server.baseURL, apiKey: 'k', onRetry: () => controller.abort() });
    await expect(model.generate(req, { signal: controller.signal })).rejects.toThrow();
    expect(server.received).toHaveLength(1);
  });

  it('with your own client, the model adds no retries unless asked (its SDK retries are its own)', async () => {
    const { default: OpenAI } = await import('openai');
    const client = new OpenAI({ apiKey: 'k', baseURL: server.baseURL, maxRetries: 0 });
    server.reply(page);
    const error = await failure(new OpenAIChatModel({ model: 'm', client, onRetry: () => {} }).generate(req));
    expect(server.received).toHaveLength(1);
    expect(error.status).toBe(503);
  });
});
