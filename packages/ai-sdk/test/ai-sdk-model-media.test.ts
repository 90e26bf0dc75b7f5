import { createAnthropic } from '@ai-sdk/anthropic';
import type { LanguageModelV3CallOptions } from '@ai-sdk/provider';
import { aiSdkModel } from '@replan/ai-sdk';
import {
  COMMON_IMAGE_TYPES,
  ConfigurationError,
  fileFromBytes,
  imageFromBytes,
  type Message,
  UnsupportedMediaError,
  userMessage,
} from '@replan/core';
import { MockLanguageModelV3 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { useFakeServer } from '../../providers/test/support/fake-server.js';
import { generated } from './support/mock-results.js';

const png = new Uint8Array([137, 80, 78, 71, 13, 10, 26, 10]);
const pngBase64 = Buffer.from(png).toString('base64');
const server = useFakeServer();

function recording(imageTypes?: readonly string[]) {
  const calls: LanguageModelV3CallOptions[] = [];
  const languageModel = new MockLanguageModelV3({
    provider: 'mock.chat',
    modelId: 'vision-model',
    doGenerate: async (options) => {
      calls.push(options);
      return generated([{ type: 'text', text: 'seen' }]);
    },
  });
  return { calls, model: aiSdkModel(languageModel, imageTypes ? { imageTypes } : {}) };
}

const svg = {
  type: 'image',
  mediaType: 'image/svg+xml',
  data: Buffer.from('<svg><script>alert(1)</script></svg>').toString('base64'),
} as const;

describe('aiSdkModel: images and files', () => {
  it('sends images and files of user messages and tool results as file parts and content outputs', async () => {
    const { calls, model } = recording();
    const messages: Message[] = [
      {
        role: 'user',
        content: [
          { type: 'text', text: 'What is in these?' },
          imageFromBytes(png, { mediaType: 'image/png', detail: 'high' }),
          { type: 'image', mediaType: 'image/jpeg', url: 'https://example.com/cat.jpg' },
          { type: 'image', mediaType: 'image/png', url: `data:image/png;base64,${pngBase64}` },
          fileFromBytes(new TextEncoder().encode('a,b\n1,2\n'), { mediaType: 'text/csv', filename: 'table.csv' }),
        ],
      },
      { role: 'assistant', content: [{ type: 'tool_call', id: 'c1', name: 'screenshot', args: {} }] },
      {
        role: 'tool',
        content: [
          {
            type: 'tool_result',
            toolCallId: 'c1',
            name: 'screenshot',
            output: [{ type: 'text', text: 'the page' }, imageFromBytes(png, { mediaType: 'image/png' })],
          },
        ],
      },
    ];
    await model.generate({ messages });
    const [user, , tool] = calls[0]?.prompt ?? [];
    expect(user?.content).toEqual([
      { type: 'text', text: 'What is in these?' },
      { type: 'file', mediaType: 'image/png', data: pngBase64, providerOptions: { openai: { imageDetail: 'high' } } },
      { type: 'file', mediaType: 'image/jpeg', data: new URL('https://example.com/cat.jpg') },
      { type: 'file', mediaType: 'image/png', data: pngBase64 },
      { type: 'file', mediaType: 'text/csv', data: Buffer.from('a,b\n1,2\n').toString('base64'), filename: 'table.csv' },
    ]);
    expect(tool?.content).toEqual([
      {
        type: 'tool-result',
        toolCallId: 'c1',
        toolName: 'screenshot',
        output: {
          type: 'content',
          value: [
            { type: 'text', text: 'the page' },
            { type: 'image-data', data: pngBase64, mediaType: 'image/png' },
          ],
        },
      },
    ]);
  });

  it('refuses an image that names a blob without its bytes, saying how to give them', async () => {
    const { calls, model } = recording();
    const blob = { type: 'image', mediaType: 'image/png', blob: 'a'.repeat(64), size: 8 } as const;
    const error = await model.generate({ messages: [{ role: 'user', content: [blob] }] }).catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: 'invalid_request' });
    expect((error as Error).message).toMatch(/names blob "a{64}" without its bytes.*imageFromBytes/);
    expect(calls).toHaveLength(0);
  });

  it('refuses an image of a type the model does not take (an SVG) with UnsupportedMediaError, before the request', async () => {
    const { calls, model } = recording();
    const error = await model
      .generate({ messages: [{ role: 'user', content: [{ type: 'text', text: 'look' }, svg] }] })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnsupportedMediaError);
    expect(error).toMatchObject({ mediaType: 'image/svg+xml', provider: 'mock.chat', model: 'vision-model' });
    expect((error as Error).message).toMatch(
      /model "vision-model" \(mock\.chat\) does not take image\/svg\+xml: it takes image\/png, image\/jpeg, image\/webp, image\/gif images.*imageTypes/,
    );
    expect(calls).toHaveLength(0);
  });

  it('tells the model, as text, of an image a tool returned that it does not take; the request still goes', async () => {
    const { calls, model } = recording();
    await model.generate({
      messages: [
        userMessage('draw'),
        { role: 'assistant', content: [{ type: 'tool_call', id: 'c1', name: 'render', args: {} }] },
        { role: 'tool', content: [{ type: 'tool_result', toolCallId: 'c1', name: 'render', output: [svg] }] },
      ],
    });
    const tool = calls[0]?.prompt.at(-1);
    expect(JSON.stringify(tool)).not.toContain(svg.data);
    expect(tool?.content).toEqual([
      {
        type: 'tool-result',
        toolCallId: 'c1',
        toolName: 'render',
        output: {
          type: 'content',
          value: [
            { type: 'text', text: expect.stringMatching(/^\[image image\/svg\+xml returned by the tool was not sent: .*image\/png/) },
          ],
        },
      },
    ]);
  });

  it('imageTypes says what the model takes (HEIC for Gemini); an entry that is not an image type is a ConfigurationError', async () => {
    const { calls, model } = recording([...COMMON_IMAGE_TYPES, 'image/heic']);
    await model.generate({ messages: [{ role: 'user', content: [imageFromBytes(png, { mediaType: 'image/heic' })] }] });
    expect(calls[0]?.prompt[0]?.content).toEqual([{ type: 'file', mediaType: 'image/heic', data: pngBase64 }]);
    const narrow = recording(['image/png']);
    await expect(
      narrow.model.generate({ messages: [{ role: 'user', content: [imageFromBytes(png, { mediaType: 'image/gif' })] }] }),
    ).rejects.toBeInstanceOf(UnsupportedMediaError);
    expect(() => recording(['text/plain'])).toThrow(ConfigurationError);
  });

  it('turns files the model generates into image and file blocks (bytes as base64)', async () => {
    const languageModel = new MockLanguageModelV3({
      doGenerate: async () =>
        generated([
          { type: 'text', text: 'Here:' },
          { type: 'file', mediaType: 'image/png', data: png },
          { type: 'file', mediaType: 'application/pdf', data: 'JVBERi0=' },
        ]),
    });
    const response = await aiSdkModel(languageModel).generate({ messages: [userMessage('draw')] });
    expect(response.message.content).toEqual([
      { type: 'text', text: 'Here:' },
      { type: 'image', mediaType: 'image/png', data: pngBase64 },
      { type: 'file', mediaType: 'application/pdf', data: 'JVBERi0=' },
    ]);
  });

  it('reaches Anthropic as a base64 image source through @ai-sdk/anthropic', async () => {
    server.reply({
      json: {
        id: 'msg_1',
        type: 'message',
        role: 'assistant',
        model: 'claude-sonnet-4-5',
        content: [{ type: 'text', text: 'A tiny PNG.' }],
        stop_reason: 'end_turn',
        stop_sequence: null,
        usage: { input_tokens: 5, output_tokens: 3 },
      },
    });
    const model = aiSdkModel(createAnthropic({ baseURL: server.baseURL, apiKey: 'k' })('claude-sonnet-4-5'));
    await model.generate({
      messages: [{ role: 'user', content: [{ type: 'text', text: 'What is it?' }, imageFromBytes(png, { mediaType: 'image/png' })] }],
    });
    expect(server.last.messages[0].content).toEqual([
      { type: 'text', text: 'What is it?' },
      { type: 'image', source: { type: 'base64', media_type: 'image/png', data: pngBase64 } },
    ]);
  });
});
