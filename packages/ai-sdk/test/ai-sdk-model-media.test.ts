import { createAnthropic } from '@ai-sdk/anthropic';
import type { LanguageModelV3CallOptions } from '@ai-sdk/provider';
import { aiSdkModel } from '@replan/ai-sdk';
import { fileFromBytes, imageFromBytes, type Message, userMessage } from '@replan/core';
import { MockLanguageModelV3 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { useFakeServer } from '../../providers/test/support/fake-server.js';
import { generated } from './support/mock-results.js';

const png = new Uint8Array([137, 80, 78, 71, 13, 10, 26, 10]);
const pngBase64 = Buffer.from(png).toString('base64');
const server = useFakeServer();

function recording() {
  const calls: LanguageModelV3CallOptions[] = [];
  const languageModel = new MockLanguageModelV3({
    doGenerate: async (options) => {
      calls.push(options);
      return generated([{ type: 'text', text: 'seen' }]);
    },
  });
  return { calls, model: aiSdkModel(languageModel) };
}

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
