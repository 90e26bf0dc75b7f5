// AI SDK 7's language models (specification v4), written against the real `@ai-sdk/provider@4` types
// (a devDependency alias): ai@7 needs Node 22, the suite runs on Node 20 too. The real AI SDK 7
// providers and clients run in tests/current-majors on Node 24.
import {
  APICallError,
  type LanguageModelV4,
  type LanguageModelV4CallOptions,
  type LanguageModelV4GenerateResult,
  type LanguageModelV4StreamPart,
} from '@ai-sdk/provider-v4';
import { aiSdkModel } from '@replan/ai-sdk';
import { ConfigurationError, ModelError, type ModelStreamPart, RunAbortedError, userMessage } from '@replan/core';
import { describe, expect, it } from 'vitest';

const usage = {
  inputTokens: { total: 10, noCache: 8, cacheRead: 2, cacheWrite: undefined },
  outputTokens: { total: 5, text: 3, reasoning: 2 },
};

interface V4Script {
  readonly provider?: string;
  readonly generate?: () => LanguageModelV4GenerateResult;
  readonly stream?: () => ReadableStream<LanguageModelV4StreamPart>;
}

/** A hand-written v4 model that records its calls, as `MockLanguageModelV4` of `ai@7/test` would. */
function v4Model(script: V4Script): LanguageModelV4 & { readonly calls: LanguageModelV4CallOptions[] } {
  const calls: LanguageModelV4CallOptions[] = [];
  return {
    specificationVersion: 'v4',
    provider: script.provider ?? 'anthropic.messages',
    modelId: 'claude-v4',
    supportedUrls: {},
    calls,
    doGenerate: async (options) => {
      calls.push(options);
      if (!script.generate) throw new Error('no generate scripted');
      return script.generate();
    },
    doStream: async (options) => {
      calls.push(options);
      if (!script.stream) throw new Error('no stream scripted');
      return { stream: script.stream() };
    },
  };
}

const streamOf = (parts: LanguageModelV4StreamPart[]) =>
  new ReadableStream<LanguageModelV4StreamPart>({
    start(controller) {
      for (const part of parts) controller.enqueue(part);
      controller.close();
    },
  });

const collect = async (parts: AsyncIterable<ModelStreamPart>) => {
  const out: ModelStreamPart[] = [];
  for await (const part of parts) out.push(part);
  return out;
};

describe('aiSdkModel: AI SDK 7 (specification v4) models', () => {
  it('maps generated text, reasoning with its signature, a tool call, a generated image and usage', async () => {
    const png = new Uint8Array([137, 80, 78, 71]);
    const model = aiSdkModel(
      v4Model({
        generate: () => ({
          content: [
            { type: 'reasoning', text: 'think', providerMetadata: { anthropic: { signature: 'sig-4' } } },
            { type: 'text', text: 'Here.' },
            { type: 'file', mediaType: 'image/png', data: { type: 'data', data: png } },
            { type: 'file', mediaType: 'image/png', data: { type: 'url', url: new URL('https://cdn.example/a.png') } },
            { type: 'tool-call', toolCallId: 'c1', toolName: 'search', input: '{"q":"x"}' },
          ],
          finishReason: { unified: 'tool-calls', raw: 'tool_use' },
          usage,
          warnings: [],
        }),
      }),
    );
    const response = await model.generate({ messages: [userMessage('hi')] });
    expect(response.finishReason).toBe('tool_calls');
    expect(response.usage).toEqual({ inputTokens: 10, outputTokens: 5, reasoningTokens: 2, cachedTokens: 2 });
    expect(response.message.content).toEqual([
      expect.objectContaining({ type: 'reasoning', reasoning: 'think', signature: 'sig-4', provider: 'anthropic' }),
      { type: 'text', text: 'Here.' },
      { type: 'image', mediaType: 'image/png', data: 'iVBORw==' },
      { type: 'image', mediaType: 'image/png', url: 'https://cdn.example/a.png' },
      { type: 'tool_call', id: 'c1', name: 'search', args: { q: 'x' } },
    ]);
  });

  it('sends files and tool-result images with v4 tagged data, and a reasoning effort as the top-level reasoning option', async () => {
    const languageModel = v4Model({
      generate: () => ({
        content: [{ type: 'text', text: '{"n":1}' }],
        finishReason: { unified: 'stop', raw: 'end_turn' },
        usage,
        warnings: [],
      }),
    });
    const model = aiSdkModel(languageModel);
    const schema = { type: 'object', properties: { n: { type: 'number' } } };
    await model.generate({
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'look' },
            { type: 'image', mediaType: 'image/png', data: 'AAAA' },
            { type: 'file', mediaType: 'application/pdf', url: 'https://files.example/a.pdf', filename: 'a.pdf' },
          ],
        },
        { role: 'assistant', content: [{ type: 'tool_call', id: 'c1', name: 'shot', args: {} }] },
        {
          role: 'tool',
          content: [
            {
              type: 'tool_result',
              toolCallId: 'c1',
              name: 'shot',
              output: [
                { type: 'text', text: 'the page' },
                { type: 'image', mediaType: 'image/png', data: 'BBBB' },
                { type: 'image', mediaType: 'image/jpeg', url: 'https://img.example/p.jpg' },
              ],
            },
          ],
        },
      ],
      responseFormat: { name: 'count', schema },
      settings: { reasoning: { effort: 'high' } },
    });
    const call = languageModel.calls[0];
    expect(call?.reasoning).toBe('high');
    expect(call?.providerOptions?.anthropic).toBeUndefined();
    expect(call?.responseFormat).toMatchObject({ type: 'json', schema, name: 'count' });
    expect(call?.prompt[0]).toEqual({
      role: 'user',
      content: [
        { type: 'text', text: 'look' },
        { type: 'file', mediaType: 'image/png', data: { type: 'data', data: 'AAAA' } },
        {
          type: 'file',
          mediaType: 'application/pdf',
          filename: 'a.pdf',
          data: { type: 'url', url: new URL('https://files.example/a.pdf') },
        },
      ],
    });
    const tool = call?.prompt[2];
    expect(tool?.role === 'tool' && tool.content[0]?.type === 'tool-result' && tool.content[0].output).toEqual({
      type: 'content',
      value: [
        { type: 'text', text: 'the page' },
        { type: 'file', mediaType: 'image/png', data: { type: 'data', data: 'BBBB' } },
        { type: 'file', mediaType: 'image/*', data: { type: 'url', url: new URL('https://img.example/p.jpg') } },
      ],
    });
  });

  it('keeps a token budget as the provider option (v4 has no top-level budget)', async () => {
    const languageModel = v4Model({
      generate: () => ({
        content: [{ type: 'text', text: 'ok' }],
        finishReason: { unified: 'stop', raw: 'end_turn' },
        usage,
        warnings: [],
      }),
    });
    await aiSdkModel(languageModel).generate({ messages: [userMessage('q')], settings: { reasoning: { budgetTokens: 1024 } } });
    expect(languageModel.calls[0]?.reasoning).toBeUndefined();
    expect(languageModel.calls[0]?.providerOptions).toEqual({ anthropic: { thinking: { type: 'enabled', budgetTokens: 1024 } } });
  });

  it('streams text and reasoning deltas past pings and v4-only parts, and finishes an interrupted stream with what came', async () => {
    const warnings: string[] = [];
    const model = aiSdkModel(
      v4Model({
        stream: () =>
          streamOf([
            { type: 'stream-start', warnings: [] },
            { type: 'reasoning-start', id: 'r' },
            { type: 'reasoning-delta', id: 'r', delta: 'hm' },
            { type: 'reasoning-end', id: 'r', providerMetadata: { anthropic: { signature: 's' } } },
            { type: 'ping' },
            { type: 'reasoning-file', mediaType: 'image/png', data: { type: 'data', data: 'CCCC' } },
            { type: 'text-start', id: 't' },
            { type: 'text-delta', id: 't', delta: 'Hel' },
            { type: 'ping' },
            { type: 'text-delta', id: 't', delta: 'lo' },
            { type: 'text-end', id: 't' },
            { type: 'finish', finishReason: { unified: 'interrupted', raw: undefined }, usage },
          ]),
      }),
      { onWarning: (w) => warnings.push(w) },
    );
    const out = await collect(model.stream({ messages: [userMessage('hi')] }));
    expect(out.filter((p) => p.type !== 'finish')).toEqual([
      { type: 'reasoning-delta', delta: 'hm' },
      { type: 'text-delta', delta: 'Hel' },
      { type: 'text-delta', delta: 'lo' },
    ]);
    const last = out.at(-1);
    expect(last?.type === 'finish' && last.response.message.content.map((b) => b.type)).toEqual(['reasoning', 'text']);
    expect(last?.type === 'finish' && last.response.finishReason).toBe('stop');
    expect(warnings).toEqual([expect.stringMatching(/"reasoning-file".*ignored/)]);
  });

  it("maps a v4 provider's APICallError to the same typed errors as v3's (a 429 is a rate_limit ModelError with retryAfterMs; a 401 auth; a 529 overloaded)", async () => {
    const languageModel = v4Model({
      generate: () => {
        throw new APICallError({
          message: 'slow down',
          url: 'https://api.example/v1',
          requestBodyValues: {},
          statusCode: 429,
          responseHeaders: { 'retry-after': '7' },
          isRetryable: true,
        });
      },
    });
    const error = await aiSdkModel(languageModel, { maxRetries: 0 })
      .generate({ messages: [userMessage('hi')] })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelError);
    expect(error).toMatchObject({ kind: 'rate_limit', status: 429, retryAfterMs: 7000, retryable: true });
    for (const [status, kind, body] of [
      [401, 'auth', '{"error":{"message":"bad key"}}'],
      [400, 'context_length', '{"error":{"message":"prompt is too long: 210000 tokens > 200000 maximum"}}'],
      [400, 'invalid_request', '{"error":{"message":"bad tools"}}'],
      [400, 'content_filter', '{"error":{"message":"blocked","code":"content_policy_violation"}}'],
      [504, 'timeout', '{"error":{"message":"timeout"}}'],
      [529, 'overloaded', '{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}'],
    ] as const) {
      const failing = v4Model({
        generate: () => {
          throw new APICallError({
            message: 'x',
            url: 'https://api.example/v1',
            requestBodyValues: {},
            statusCode: status,
            responseBody: body,
          });
        },
      });
      const mapped = await aiSdkModel(failing, { maxRetries: 0 })
        .generate({ messages: [userMessage('hi')] })
        .catch((e: unknown) => e);
      expect(mapped).toMatchObject({ kind, status });
    }
  });

  it('cancels the v4 stream (its HTTP request) when the run is aborted mid-stream', async () => {
    let cancelled = false;
    const controller = new AbortController();
    const model = aiSdkModel(
      v4Model({
        stream: () =>
          new ReadableStream<LanguageModelV4StreamPart>({
            start(c) {
              c.enqueue({ type: 'text-delta', id: 't', delta: 'partial' });
            },
            cancel() {
              cancelled = true;
            },
          }),
      }),
    );
    const seen: ModelStreamPart[] = [];
    const run = (async () => {
      for await (const part of model.stream({ messages: [userMessage('hi')] }, { signal: controller.signal })) {
        seen.push(part);
        controller.abort(new RunAbortedError('stopped'));
        break;
      }
    })();
    await run;
    expect(seen).toEqual([{ type: 'text-delta', delta: 'partial' }]);
    await expect.poll(() => cancelled).toBe(true);
  });

  it('refuses a model of a specification it does not take (v2, v5), naming v3 and v4', () => {
    for (const spec of ['v2', 'v5']) {
      const attempt = () => aiSdkModel({ specificationVersion: spec, provider: 'x', modelId: 'm' } as never);
      expect(attempt).toThrow(ConfigurationError);
      expect(attempt).toThrow(new RegExp(`v3 \\(ai@6.*v4 \\(ai@7.*got specification "${spec}"`));
    }
  });
});
