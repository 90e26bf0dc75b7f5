import type { LanguageModelV3StreamPart } from '@ai-sdk/provider';
import { aiSdkModel } from '@replan/ai-sdk';
import { ConfigurationError, fallbackModel, type FallbackInfo, ModelError, type ModelStreamPart, userMessage } from '@replan/core';
import { MockLanguageModelV3 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { generated, streamedParts } from './support/mock-results.js';

const request = { messages: [userMessage('Hi')] };

/** A stream that sends `parts`, then nothing: it stays open until cancelled (counted in `cancels`). */
function stalling(parts: LanguageModelV3StreamPart[]) {
  const state = { cancels: 0 };
  const stream = new ReadableStream<LanguageModelV3StreamPart>({
    start(controller) {
      for (const part of parts) controller.enqueue(part);
    },
    cancel() {
      state.cancels++;
    },
  });
  return { state, model: new MockLanguageModelV3({ doStream: async () => ({ stream }) }) };
}

const drain = async (parts: AsyncIterable<ModelStreamPart>) => {
  const out: ModelStreamPart[] = [];
  for await (const part of parts) out.push(part);
  return out;
};

describe('aiSdkModel: idleTimeoutMs', () => {
  it('fails a stream that goes silent with a timeout ModelError keeping the partial output, and cancels the request', async () => {
    const { state, model } = stalling([
      { type: 'stream-start', warnings: [] },
      { type: 'text-start', id: 't' },
      { type: 'text-delta', id: 't', delta: 'Hel' },
    ]);
    const error = await drain(aiSdkModel(model, { idleTimeoutMs: 20 }).stream(request)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelError);
    expect((error as ModelError).kind).toBe('timeout');
    expect((error as ModelError).message).toMatch(/sent nothing for 20 ms.*raise idleTimeoutMs/);
    expect((error as ModelError).retryable).toBe(true);
    expect((error as ModelError).partial?.content).toEqual([{ type: 'text', text: 'Hel' }]);
    expect(state.cancels).toBe(1);
  });

  it('is a timeout to fallbackModel: a primary that stalls before any output hands the call on', async () => {
    const { model } = stalling([{ type: 'stream-start', warnings: [] }]);
    const backup = new MockLanguageModelV3({
      modelId: 'backup',
      doStream: async () => ({ stream: toStream(streamedParts(generated([{ type: 'text', text: 'from backup' }]))) }),
    });
    const fallbacks: FallbackInfo[] = [];
    const chain = fallbackModel([aiSdkModel(model, { id: 'primary', idleTimeoutMs: 20 }), aiSdkModel(backup, { id: 'backup' })], {
      onFallback: (info) => fallbacks.push(info),
    });
    const parts = await drain(chain.stream(request));
    expect(fallbacks.map((f) => [f.from, f.to, f.kind])).toEqual([['primary', 'backup', 'timeout']]);
    expect(fallbacks[0]?.error).toBeInstanceOf(ModelError);
    const last = parts.at(-1);
    expect(last?.type === 'finish' && last.response.message.content).toEqual([{ type: 'text', text: 'from backup' }]);
  });

  it('0 turns it off; a negative or non-finite value is refused', async () => {
    const parts = streamedParts(generated([{ type: 'text', text: 'late' }]));
    const slow = new MockLanguageModelV3({
      doStream: async () => ({
        stream: new ReadableStream<LanguageModelV3StreamPart>({
          async pull(controller) {
            // One pause far longer than a 1 ms timeout would allow.
            if (parts.length === 3) await new Promise((resolve) => setTimeout(resolve, 30));
            const part = parts.shift();
            if (part) controller.enqueue(part);
            else controller.close();
          },
        }),
      }),
    });
    const out = await drain(aiSdkModel(slow, { idleTimeoutMs: 0 }).stream(request));
    expect(out.at(-1)?.type).toBe('finish');
    expect(() => aiSdkModel(new MockLanguageModelV3(), { idleTimeoutMs: -1 })).toThrow(ConfigurationError);
    expect(() => aiSdkModel(new MockLanguageModelV3(), { idleTimeoutMs: Number.NaN })).toThrow(ConfigurationError);
  });
});

const toStream = (parts: LanguageModelV3StreamPart[]) =>
  new ReadableStream<LanguageModelV3StreamPart>({
    start(controller) {
      for (const part of parts) controller.enqueue(part);
      controller.close();
    },
  });
