import {
  APICallError,
  type LanguageModelV3CallOptions,
  type LanguageModelV3Content,
  type LanguageModelV3StreamPart,
} from '@ai-sdk/provider';
import { aiSdkModel } from '@replan/ai-sdk';
import { ConfigurationError, ModelError, type ModelErrorKind, type ModelStreamPart, RunAbortedError, userMessage } from '@replan/core';
import { MockLanguageModelV3 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { generated, streamOf, usage } from './support/mock-results.js';

const collect = async (parts: AsyncIterable<ModelStreamPart>) => {
  const out: ModelStreamPart[] = [];
  for await (const part of parts) out.push(part);
  return out;
};

const finish = { type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage: usage(3, 2) } as const;

describe('aiSdkModel: requests', () => {
  it('sends tools as JSON Schema, each tool choice, a JSON response format and settings as the provider names them', async () => {
    const calls: LanguageModelV3CallOptions[] = [];
    const languageModel = new MockLanguageModelV3({
      provider: 'anthropic.messages',
      doGenerate: async (options) => {
        calls.push(options);
        return generated([{ type: 'text', text: '{"n":1}' }]);
      },
    });
    const model = aiSdkModel(languageModel, {
      settings: { temperature: 0.2, extra: { sendReasoning: true } },
      providerOptions: { anthropic: { cacheControl: { type: 'ephemeral' } } },
    });
    const tools = [{ name: 'search', description: 'Search', parameters: { type: 'object', properties: { q: { type: 'string' } } } }];
    for (const toolChoice of ['auto', 'required', 'none', { name: 'search' }] as const)
      await model.generate({ messages: [userMessage('hi')], tools, toolChoice });
    const schema = { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] };
    const structured = await model.generate({
      messages: [userMessage('count')],
      responseFormat: { name: 'count', schema, description: 'A count' },
      settings: { maxTokens: 100, reasoning: { budgetTokens: 2048 } },
    });
    expect(structured.message.content).toEqual([{ type: 'text', text: '{"n":1}' }]);
    expect(calls.map((c) => c.toolChoice)).toEqual([
      { type: 'auto' },
      { type: 'required' },
      { type: 'none' },
      { type: 'tool', toolName: 'search' },
      undefined,
    ]);
    expect(calls[0]?.tools).toEqual([{ type: 'function', name: 'search', description: 'Search', inputSchema: tools[0]?.parameters }]);
    expect(calls[4]).toMatchObject({
      responseFormat: { type: 'json', schema, name: 'count', description: 'A count' },
      maxOutputTokens: 100,
      temperature: 0.2,
      providerOptions: {
        anthropic: { thinking: { type: 'enabled', budgetTokens: 2048 }, sendReasoning: true, cacheControl: { type: 'ephemeral' } },
      },
    });
  });

  it('sends reasoning made by another model in the shape each provider reads (Anthropic signatures, Gemini thought signatures)', async () => {
    const calls: LanguageModelV3CallOptions[] = [];
    const languageModel = new MockLanguageModelV3({
      doGenerate: async (options) => {
        calls.push(options);
        return generated([{ type: 'text', text: 'ok' }]);
      },
    });
    await aiSdkModel(languageModel).generate({
      messages: [
        userMessage('q'),
        {
          role: 'assistant',
          content: [
            { type: 'reasoning', reasoning: 'thought', signature: 'sig-a', provider: 'anthropic' },
            { type: 'reasoning', reasoning: '', redacted: true, data: 'enc', provider: 'anthropic' },
            { type: 'tool_call', id: 'c1', name: 'f', args: { a: 1 }, signature: 'gem-sig' },
          ],
        },
        { role: 'tool', content: [{ type: 'tool_result', toolCallId: 'c1', name: 'f', output: 'boom', isError: true }] },
      ],
    });
    expect(calls[0]?.prompt.slice(1)).toEqual([
      {
        role: 'assistant',
        content: [
          { type: 'reasoning', text: 'thought', providerOptions: { anthropic: { signature: 'sig-a' } } },
          { type: 'reasoning', text: '', providerOptions: { anthropic: { redactedData: 'enc' } } },
          {
            type: 'tool-call',
            toolCallId: 'c1',
            toolName: 'f',
            input: { a: 1 },
            providerOptions: { google: { thoughtSignature: 'gem-sig' }, vertex: { thoughtSignature: 'gem-sig' } },
          },
        ],
      },
      { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'c1', toolName: 'f', output: { type: 'error-text', value: 'boom' } }] },
    ]);
  });

  it('refuses what is not a v3 language model, saying what to pass', () => {
    expect(() => aiSdkModel('openai/gpt-4o' as never)).toThrow(ConfigurationError);
    expect(() => aiSdkModel({ specificationVersion: 'v2' } as never)).toThrow(/specification "v2"/);
    expect(() => aiSdkModel(new MockLanguageModelV3(), { contextWindow: 0 })).toThrow(ConfigurationError);
  });
});

describe('aiSdkModel: responses', () => {
  it('ignores a part of an unknown type with one warning, not a crash', async () => {
    const warnings: string[] = [];
    const parts = [
      { type: 'text-delta', id: 't', delta: 'Hello' },
      { type: 'hologram', id: 'h', payload: 1 },
      { type: 'hologram', id: 'h2', payload: 2 },
      finish,
    ] as unknown as LanguageModelV3StreamPart[];
    const languageModel = new MockLanguageModelV3({ doStream: async () => streamOf(parts) });
    const model = aiSdkModel(languageModel, { onWarning: (w) => warnings.push(w) });
    for (let i = 0; i < 2; i++) {
      const out = await collect(model.stream({ messages: [userMessage('hi')] }));
      expect(out.at(-1)).toEqual({
        type: 'finish',
        response: {
          message: { role: 'assistant', content: [{ type: 'text', text: 'Hello' }] },
          finishReason: 'stop',
          usage: { inputTokens: 3, outputTokens: 2 },
        },
      });
    }
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/"hologram".*ignored/);
  });

  it('ignores content of an unknown type from doGenerate with one warning, keeping the rest', async () => {
    const warnings: string[] = [];
    const content = [
      { type: 'text', text: 'Hello' },
      { type: 'hologram', payload: 1 },
      { type: 'text', text: ' there' },
      { type: 'hologram', payload: 2 },
    ] as unknown as LanguageModelV3Content[];
    const languageModel = new MockLanguageModelV3({ doGenerate: async () => generated(content) });
    const model = aiSdkModel(languageModel, { onWarning: (w) => warnings.push(w) });
    for (let i = 0; i < 2; i++) {
      const response = await model.generate({ messages: [userMessage('hi')] });
      expect(response.message.content.map((b) => (b.type === 'text' ? b.text : b.type)).join('')).toBe('Hello there');
      expect(response.finishReason).toBe('stop');
    }
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/"hologram".*ignored/);
  });

  it('keeps Gemini thought signatures of tool calls and invalid arguments as they came; a stop with tool calls is tool_calls', async () => {
    const languageModel = new MockLanguageModelV3({
      provider: 'google.generative-ai',
      doGenerate: async () => ({
        ...generated([
          { type: 'reasoning', text: 'plan', providerMetadata: { google: { thoughtSignature: 'ts-r' } } },
          {
            type: 'tool-call',
            toolCallId: 'a',
            toolName: 'f',
            input: '{"x":1}',
            providerMetadata: { google: { thoughtSignature: 'ts-1' } },
          },
          { type: 'tool-call', toolCallId: 'b', toolName: 'g', input: '{"x":' },
        ]),
        finishReason: { unified: 'stop', raw: 'STOP' },
      }),
    });
    const model = aiSdkModel(languageModel);
    expect(model.reasoningProviders).toEqual(['gemini']);
    expect(model.provider).toBe('google');
    const response = await model.generate({ messages: [userMessage('hi')] });
    expect(response.finishReason).toBe('tool_calls');
    expect(response.message.content).toEqual([
      {
        type: 'reasoning',
        reasoning: 'plan',
        signature: 'ts-r',
        provider: 'gemini',
        providerData: { providerMetadata: { google: { thoughtSignature: 'ts-r' } } },
      },
      { type: 'tool_call', id: 'a', name: 'f', args: { x: 1 }, signature: 'ts-1' },
      { type: 'tool_call', id: 'b', name: 'g', args: {}, rawArgs: '{"x":', argsError: expect.any(String) },
    ]);

    // The next turn sends both signatures back where Google's provider reads them.
    await model.generate({ messages: [userMessage('hi'), response.message] });
    const sent = languageModel.doGenerateCalls[1]?.prompt[1];
    expect(sent?.role === 'assistant' && sent.content.slice(0, 2)).toEqual([
      { type: 'reasoning', text: 'plan', providerOptions: { google: { thoughtSignature: 'ts-r' } } },
      {
        type: 'tool-call',
        toolCallId: 'a',
        toolName: 'f',
        input: { x: 1 },
        providerOptions: { google: { thoughtSignature: 'ts-1' }, vertex: { thoughtSignature: 'ts-1' } },
      },
    ]);
  });

  it('maps finish reasons: length, content filter, refusal; an error finish fails the call', async () => {
    const reasons = [
      [{ unified: 'length', raw: 'max_tokens' }, 'length'],
      [{ unified: 'content-filter', raw: 'content_filter' }, 'content_filter'],
      [{ unified: 'content-filter', raw: 'refusal' }, 'refusal'],
      [{ unified: 'other', raw: 'pause_turn' }, 'stop'],
    ] as const;
    for (const [finishReason, expected] of reasons) {
      const languageModel = new MockLanguageModelV3({
        doGenerate: async () => ({ ...generated([{ type: 'text', text: 'x' }]), finishReason }),
      });
      expect((await aiSdkModel(languageModel).generate({ messages: [userMessage('hi')] })).finishReason).toBe(expected);
    }
    const failing = new MockLanguageModelV3({
      doGenerate: async () => ({ ...generated([{ type: 'text', text: 'half' }]), finishReason: { unified: 'error', raw: 'server_error' } }),
    });
    await expect(aiSdkModel(failing, { maxRetries: 0 }).generate({ messages: [userMessage('hi')] })).rejects.toThrow(
      /finished with an error \(server_error\)/,
    );
  });

  it("turns a stream's error part into a typed error that keeps what was streamed", async () => {
    const parts = [
      { type: 'text-delta', id: 't', delta: 'Partial answer' },
      { type: 'error', error: { type: 'error', error: { type: 'rate_limit_error', message: 'Slow down' } } },
    ] as LanguageModelV3StreamPart[];
    const languageModel = new MockLanguageModelV3({ doStream: async () => streamOf(parts) });
    const error = await collect(aiSdkModel(languageModel).stream({ messages: [userMessage('hi')] })).catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: 'rate_limit', retryable: true });
    expect((error as ModelError).partial?.content).toEqual([{ type: 'text', text: 'Partial answer' }]);
    expect((error as ModelError).message).toMatch(/Slow down/);

    const overflow = new MockLanguageModelV3({
      doStream: async () => streamOf([{ type: 'error', error: new Error('prompt is too long: 210000 tokens > 200000 maximum') }]),
    });
    const overflowError = await collect(aiSdkModel(overflow).stream({ messages: [userMessage('hi')] })).catch((e: unknown) => e);
    expect(overflowError).toBeInstanceOf(ModelError);
    expect(overflowError).toMatchObject({ kind: 'context_length', retryable: false });

    const overloaded = new MockLanguageModelV3({
      doStream: async () =>
        streamOf([{ type: 'error', error: { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } } }]),
    });
    const busy = await collect(aiSdkModel(overloaded).stream({ messages: [userMessage('hi')] })).catch((e: unknown) => e);
    expect(busy).toMatchObject({ kind: 'overloaded', retryable: true });
  });

  it.each([
    [429, '{"error":{"message":"slow down"}}', 'rate_limit', true],
    [400, '{"error":{"message":"maximum context length is 8192 tokens","code":"context_length_exceeded"}}', 'context_length', false],
    [401, '{"error":{"message":"invalid api key"}}', 'auth', false],
    [403, '{"error":{"message":"not allowed"}}', 'auth', false],
    [422, '{"error":{"message":"tools[0] is invalid"}}', 'invalid_request', false],
    [408, '{"error":{"message":"request timeout"}}', 'timeout', true],
    [504, '{"error":{"message":"gateway timeout"}}', 'timeout', true],
    [529, '{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}', 'overloaded', true],
    [503, '{"error":{"message":"service unavailable"}}', 'overloaded', true],
    [400, '{"error":{"message":"The response was filtered","code":"content_filter"}}', 'content_filter', false],
    [500, '{"error":{"message":"internal error"}}', 'server', true],
  ] as const)(
    "maps an APICallError with HTTP %i to a ModelError (%s), the provider's error as cause",
    async (status, body, kind, retryable) => {
      const apiError = new APICallError({
        message: 'failed',
        url: 'http://127.0.0.1/v1/chat',
        requestBodyValues: {},
        statusCode: status,
        responseBody: body,
        isRetryable: retryable,
      });
      const languageModel = new MockLanguageModelV3({
        doGenerate: async () => {
          throw apiError;
        },
      });
      const error = await aiSdkModel(languageModel, { maxRetries: 0 })
        .generate({ messages: [userMessage('hi')] })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ModelError);
      expect(error).toMatchObject({ kind: kind as ModelErrorKind, status, retryable, url: 'http://127.0.0.1/v1/chat' });
      expect((error as ModelError).cause).toBe(apiError);
    },
  );

  it('passes the signal to the provider, and an abort during a retry wait ends the call with no further attempt', async () => {
    const signals: (AbortSignal | undefined)[] = [];
    const overloaded = new APICallError({
      message: 'Service Unavailable',
      url: 'http://127.0.0.1/v1/messages',
      requestBodyValues: {},
      statusCode: 503,
      responseBody: '{"error":{"message":"overloaded"}}',
      isRetryable: true,
    });
    const languageModel = new MockLanguageModelV3({
      doGenerate: async (options) => {
        signals.push(options.abortSignal);
        throw overloaded;
      },
    });
    const controller = new AbortController();
    const model = aiSdkModel(languageModel, { maxRetries: 5, onRetry: () => controller.abort() });
    const error = await model.generate({ messages: [userMessage('hi')] }, { signal: controller.signal }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RunAbortedError);
    expect(signals).toEqual([controller.signal]);
  });
});
