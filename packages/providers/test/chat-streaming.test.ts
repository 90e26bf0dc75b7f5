import { getEventListeners } from 'node:events';
import { ModelError, userMessage } from '@replan/core';
import { describe, expect, it } from 'vitest';
import { OpenAIChatModel } from '../src/index.js';
import { useFakeServer } from './support/fake-server.js';
import { chunk, completion, usageChunk } from './support/payloads.js';
import { bothWays, collect, textDeltas } from './support/run.js';

const server = useFakeServer();

const model = (extra: Partial<ConstructorParameters<typeof OpenAIChatModel>[0]> = {}) =>
  new OpenAIChatModel({ model: 'gpt-4o-mini', baseURL: server.baseURL, apiKey: 'k', maxRetries: 0, ...extra });
const req = { messages: [userMessage('hi')] };

describe('streamed tool calls', () => {
  it('assembles interleaved parallel calls by index and parses arguments only at the end', async () => {
    const { streamed, parts } = await bothWays(server, model(), {
      sse: {
        sse: [
          chunk({
            role: 'assistant',
            content: null,
            tool_calls: [{ index: 0, id: 'call_a', type: 'function', function: { name: 'search', arguments: '' } }],
          }),
          chunk({ tool_calls: [{ index: 1, id: 'call_b', type: 'function', function: { name: 'fetch', arguments: '' } }] }),
          chunk({ tool_calls: [{ index: 0, function: { arguments: '{"q": "ca' } }] }),
          chunk({ tool_calls: [{ index: 1, function: { arguments: '{"url":"https://x' } }] }),
          chunk({ tool_calls: [{ index: 0, function: { arguments: 'ts"}' } }] }),
          chunk({ tool_calls: [{ index: 1, function: { arguments: '.dev"}' } }] }),
          chunk({}, 'tool_calls'),
        ],
      },
      json: {
        json: completion(
          {
            content: null,
            tool_calls: [
              { id: 'call_a', type: 'function', function: { name: 'search', arguments: '{"q": "cats"}' } },
              { id: 'call_b', type: 'function', function: { name: 'fetch', arguments: '{"url":"https://x.dev"}' } },
            ],
          },
          'tool_calls',
        ),
      },
    });
    expect(streamed.message.content).toEqual([
      { type: 'tool_call', id: 'call_a', name: 'search', args: { q: 'cats' } },
      { type: 'tool_call', id: 'call_b', name: 'fetch', args: { url: 'https://x.dev' } },
    ]);
    const deltas = parts.filter((p) => p.type === 'tool-call-delta');
    expect(deltas[0]).toEqual({ type: 'tool-call-delta', index: 0, id: 'call_a', name: 'search', argsDelta: '' });
    expect(
      deltas
        .filter((d) => d.index === 0)
        .map((d) => d.argsDelta)
        .join(''),
    ).toBe('{"q": "cats"}');
    expect(
      deltas
        .filter((d) => d.index === 1)
        .map((d) => d.argsDelta)
        .join(''),
    ).toBe('{"url":"https://x.dev"}');
  });

  it('turns invalid final JSON into a tool_call with rawArgs and argsError, not a crash', async () => {
    const { streamed } = await bothWays(server, model(), {
      sse: {
        sse: [
          chunk({
            tool_calls: [{ index: 0, id: 'call_bad', type: 'function', function: { name: 'search', arguments: '{"q": "unterminated' } }],
          }),
          chunk({ tool_calls: [{ index: 1, id: 'call_arr', type: 'function', function: { name: 'search', arguments: '[1,2]' } }] }),
          chunk({}, 'tool_calls'),
        ],
      },
      json: {
        json: completion(
          {
            tool_calls: [
              { id: 'call_bad', type: 'function', function: { name: 'search', arguments: '{"q": "unterminated' } },
              { id: 'call_arr', type: 'function', function: { name: 'search', arguments: '[1,2]' } },
            ],
          },
          'tool_calls',
        ),
      },
    });
    const [bad, arr] = streamed.message.content as any[];
    expect(bad).toMatchObject({ type: 'tool_call', id: 'call_bad', name: 'search', args: {}, rawArgs: '{"q": "unterminated' });
    expect(bad.argsError).toMatch(/JSON/i);
    expect(arr).toMatchObject({ args: {}, rawArgs: '[1,2]', argsError: 'the arguments are an array, not a JSON object' });
  });

  it('reports `tool_calls` when a stream ends `stop` with tool calls', async () => {
    const { streamed } = await bothWays(server, model(), {
      sse: {
        sse: [
          chunk({ tool_calls: [{ index: 0, id: 'c', type: 'function', function: { name: 'f', arguments: '{}' } }] }),
          chunk({}, 'stop'),
        ],
      },
      json: { json: completion({ tool_calls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: '{}' } }] }, 'stop') },
    });
    expect(streamed.finishReason).toBe('tool_calls');
  });

  it('ignores repeated roles, content "", and empty argument continuations (Ollama, OpenRouter)', async () => {
    const { streamed, parts } = await bothWays(server, model(), {
      sse: {
        sse: [
          chunk({ role: 'assistant', content: '' }),
          chunk({
            role: 'assistant',
            content: '',
            tool_calls: [{ id: 'call_o', index: 0, type: 'function', function: { name: 'f', arguments: '{"a":1}' } }],
          }),
          chunk({ role: 'assistant', content: '', tool_calls: [{ index: 0, type: 'function', function: { arguments: '' } }] }),
          chunk({
            role: 'assistant',
            content: '',
            tool_calls: [{ index: 0, id: 'call_o', type: 'function', function: { name: 'f', arguments: '' } }],
          }),
          chunk({ role: 'assistant', content: '' }, 'tool_calls'),
        ],
      },
      json: {
        json: completion(
          { content: '', tool_calls: [{ id: 'call_o', type: 'function', function: { name: 'f', arguments: '{"a":1}' } }] },
          'tool_calls',
        ),
      },
    });
    expect(streamed.message.content).toEqual([{ type: 'tool_call', id: 'call_o', name: 'f', args: { a: 1 } }]);
    expect(parts.filter((p) => p.type === 'text-delta')).toEqual([]);
  });

  it('starts a new call when a used index arrives with a different id (servers that number every call 0)', async () => {
    server.reply({
      sse: [
        chunk({ tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'a', arguments: '{"x":1}' } }] }),
        chunk({ tool_calls: [{ index: 0, id: 'call_2', type: 'function', function: { name: 'b', arguments: '{"y":2}' } }] }),
        chunk({}, 'tool_calls'),
      ],
    });
    const { response } = await collect(model(), req);
    expect(response.message.content).toEqual([
      { type: 'tool_call', id: 'call_1', name: 'a', args: { x: 1 } },
      { type: 'tool_call', id: 'call_2', name: 'b', args: { y: 2 } },
    ]);
  });

  it('gives a call without an id one id, the same in every view', async () => {
    server.reply({
      sse: [chunk({ tool_calls: [{ index: 0, type: 'function', function: { name: 'f', arguments: '{}' } }] }), chunk({}, 'tool_calls')],
    });
    const { response } = await collect(model(), req);
    const call = response.message.content[0] as { id: string };
    expect(call.id).toMatch(/^call_[0-9a-f]{24}$/);
  });
});

describe('text, finish reasons and usage', () => {
  it('streams text deltas and maps length / content_filter', async () => {
    for (const finish of ['length', 'content_filter'] as const) {
      const { streamed, parts } = await bothWays(server, model(), {
        sse: { sse: [chunk({ role: 'assistant', content: 'Hel' }), chunk({ content: 'lo' }), chunk({}, finish)] },
        json: { json: completion({ content: 'Hello' }, finish) },
      });
      expect(streamed.message.content).toEqual([{ type: 'text', text: 'Hello' }]);
      expect(streamed.finishReason).toBe(finish);
      expect(textDeltas(parts, 'text-delta')).toBe('Hello');
    }
  });

  it('maps a refusal', async () => {
    const { streamed } = await bothWays(server, model(), {
      sse: {
        sse: [chunk({ role: 'assistant', content: null, refusal: "I can't " }), chunk({ refusal: 'help with that.' }), chunk({}, 'stop')],
      },
      json: { json: completion({ content: null, refusal: "I can't help with that." }) },
    });
    expect(streamed.finishReason).toBe('refusal');
    expect(streamed.message.content).toEqual([{ type: 'text', text: "I can't help with that." }]);
  });

  it('reads usage from the include_usage chunk, and no stream_options when turned off', async () => {
    server.reply({
      sse: [chunk({ content: 'x' }), chunk({}, 'stop'), usageChunk({ prompt_tokens: 3, completion_tokens: 1, total_tokens: 4 })],
    });
    const { response } = await collect(model(), req);
    expect(response.usage).toEqual({ inputTokens: 3, outputTokens: 1 });

    server.reply({ sse: [chunk({ content: 'x' }), chunk({}, 'stop')] });
    const { response: noUsage } = await collect(model({ streamUsage: false }), req);
    expect(noUsage.usage).toBeUndefined();
    expect(server.last.stream_options).toBeUndefined();
    expect(server.last.stream).toBe(true);
  });

  it('accepts `error: null` next to a normal answer', async () => {
    server.reply({ json: { ...completion({ content: 'fine' }), error: null } });
    expect((await model().generate(req)).message.content).toEqual([{ type: 'text', text: 'fine' }]);
    server.reply({ sse: [{ ...chunk({ content: 'fine' }), error: null }, chunk({}, 'stop')] });
    expect((await collect(model(), req)).response.message.content).toEqual([{ type: 'text', text: 'fine' }]);
  });

  it('ignores other choices than the first', async () => {
    const second = { ...chunk({ content: 'OTHER' }), choices: [{ index: 1, delta: { content: 'OTHER' }, finish_reason: null }] };
    server.reply({ sse: [chunk({ content: 'mine' }), second, chunk({}, 'stop')] });
    const { response } = await collect(model(), req);
    expect(response.message.content).toEqual([{ type: 'text', text: 'mine' }]);
  });

  it('fails clearly on an empty stream', async () => {
    server.reply({ sse: [] });
    await expect(collect(model(), req)).rejects.toBeInstanceOf(ModelError);
  });
});

describe('abort', () => {
  it('stops a stream midway with the abort error, not a provider error', async () => {
    const controller = new AbortController();
    server.reply({ sse: [chunk({ content: 'a' }), chunk({ content: 'b' })], stall: true });
    const parts: unknown[] = [];
    const run = (async () => {
      for await (const part of model().stream(req, { signal: controller.signal })) {
        parts.push(part);
        if (parts.length === 2) controller.abort(new Error('user stopped'));
      }
    })();
    await expect(run).rejects.toThrow('user stopped');
  });

  it('aborts before the answer arrives', async () => {
    const controller = new AbortController();
    server.reply(() => ({ sse: [chunk({ content: 'late' })], delayMs: 200 }));
    const promise = model().generate(req, { signal: controller.signal });
    setTimeout(() => controller.abort(), 20);
    await expect(promise).rejects.toThrow(/abort/i);
  });
});

describe("the run's signal", () => {
  it('keeps no listener per call: twelve calls, generated and streamed, leave it as they found it', async () => {
    const controller = new AbortController();
    for (let i = 0; i < 6; i++) {
      server.reply({ json: completion({ content: 'ok' }) });
      await model().generate(req, { signal: controller.signal });
      server.reply({ sse: [chunk({ content: 'ok' }, 'stop')] });
      await collect(model(), req, controller.signal);
    }
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  });
});
