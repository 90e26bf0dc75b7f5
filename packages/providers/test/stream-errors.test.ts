import { describe, expect, it } from 'vitest';
import { userMessage } from '@replan/core';
import { OpenAIChatModel } from '../src/index.js';
import { useFakeServer } from './support/fake-server.js';
import { expectKind, failure } from './support/model-errors.js';
import { chunk } from './support/payloads.js';
import { collect } from './support/run.js';

// Failures after a stream started: an error event or chunk midway, a stall, a chunk that is not
// JSON. Each is a typed `ModelError` keeping what arrived (`partial`).

const server = useFakeServer();

const model = (extra: Partial<ConstructorParameters<typeof OpenAIChatModel>[0]> = {}) =>
  new OpenAIChatModel({ model: 'gpt-4o', baseURL: server.baseURL, apiKey: 'k', maxRetries: 0, ...extra });
const req = { messages: [userMessage('hi')] };

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
