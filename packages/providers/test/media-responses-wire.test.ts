import type { Message } from '@replan/core';
import { fileFromBytes, imageFromBytes, ReActAgent, Runner, tool, toolMessage, UnsupportedMediaError, userMessage } from '@replan/core';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { OpenAIChatModel, OpenAIResponsesModel } from '../src/index.js';
import { useFakeServer } from './support/fake-server.js';
import { completion } from './support/payloads.js';

const server = useFakeServer();

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');
const PNG64 = PNG.toString('base64');
const PDF64 = Buffer.from('%PDF-1.4\n%%EOF').toString('base64');

const responses = () => new OpenAIResponsesModel({ model: 'gpt-4.1', baseURL: server.baseURL, apiKey: 'k', maxRetries: 0 });
const answer = {
  id: 'resp_1',
  object: 'response',
  created_at: 1,
  status: 'completed',
  model: 'gpt-4.1',
  error: null,
  incomplete_details: null,
  usage: { input_tokens: 5, output_tokens: 2, total_tokens: 7 },
  output: [
    {
      id: 'msg_1',
      type: 'message',
      role: 'assistant',
      status: 'completed',
      content: [{ type: 'output_text', text: 'ok', annotations: [] }],
    },
  ],
};

async function sent(messages: Message[]): Promise<any> {
  server.reply({ json: answer });
  await responses().generate({ messages });
  return server.last;
}

describe('images and files on the Responses API', () => {
  it('user messages carry input_text, input_image (detail auto unless given) and input_file (file_data or file_url)', async () => {
    const body = await sent([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Read these.' },
          imageFromBytes(PNG),
          { type: 'image', mediaType: 'image/jpeg', url: 'https://example.com/a.jpg', detail: 'low' },
          fileFromBytes(Buffer.from('%PDF-1.4\n%%EOF'), { filename: 'invoice.pdf' }),
          { type: 'file', mediaType: 'application/pdf', url: 'https://example.com/report.pdf' },
        ],
      },
    ]);
    expect(body.input).toEqual([
      {
        role: 'user',
        content: [
          { type: 'input_text', text: 'Read these.' },
          { type: 'input_image', image_url: `data:image/png;base64,${PNG64}`, detail: 'auto' },
          { type: 'input_image', image_url: 'https://example.com/a.jpg', detail: 'low' },
          { type: 'input_file', filename: 'invoice.pdf', file_data: `data:application/pdf;base64,${PDF64}` },
          { type: 'input_file', file_url: 'https://example.com/report.pdf' },
        ],
      },
    ]);
  });

  it("a tool's returned image goes back inside its function_call_output (no extra user message)", async () => {
    const body = await sent([
      userMessage('look'),
      { role: 'assistant', content: [{ type: 'tool_call', id: 'call_1', name: 'screenshot', args: {} }] },
      toolMessage([
        { type: 'tool_result', toolCallId: 'call_1', name: 'screenshot', output: [{ type: 'text', text: 'page' }, imageFromBytes(PNG)] },
      ]),
    ]);
    expect(body.input.slice(2)).toEqual([
      {
        type: 'function_call_output',
        call_id: 'call_1',
        output: [
          { type: 'input_text', text: 'page' },
          { type: 'input_image', image_url: `data:image/png;base64,${PNG64}`, detail: 'auto' },
        ],
      },
    ]);
  });

  it('an image type OpenAI refuses is UnsupportedMediaError naming the Responses API, before sending', async () => {
    const failure = await responses()
      .generate({ messages: [{ role: 'user', content: [imageFromBytes(PNG, { mediaType: 'image/tiff' })] }] })
      .catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(UnsupportedMediaError);
    expect((failure as Error).message).toMatch(/model "gpt-4\.1" \(the OpenAI Responses API\) does not take image\/tiff/);
    expect(server.received).toHaveLength(0);
  });
});

describe('a ReAct run whose tool returns an image', () => {
  it('the image reaches the model on the next call, in a user message naming the tool call (Chat Completions)', async () => {
    const screenshot = tool({
      name: 'screenshot',
      description: 'Takes a screenshot',
      parameters: z.object({}),
      execute: () => [{ type: 'text' as const, text: 'the login page' }, imageFromBytes(PNG)],
    });
    const model = new OpenAIChatModel({ model: 'gpt-4o', baseURL: server.baseURL, apiKey: 'k', maxRetries: 0, media: 'openai' });
    server.reply(
      {
        json: completion(
          { content: null, tool_calls: [{ id: 'call_9', type: 'function', function: { name: 'screenshot', arguments: '{}' } }] },
          'tool_calls',
        ),
      },
      { json: completion({ content: 'A login form.' }) },
    );
    const runner = new Runner({ agent: new ReActAgent({ name: 'looker', model, tools: [screenshot] }), appName: 'app' });
    const result = await runner.run({ userId: 'u', input: 'What is on the screen?' }).result();
    expect(result.output).toBe('A login form.');
    const messages = server.last.messages;
    expect(messages.at(-2)).toEqual({
      role: 'tool',
      tool_call_id: 'call_9',
      content: 'the login page\n[image image/png] (attached in the next user message)',
    });
    expect(messages.at(-1)).toEqual({
      role: 'user',
      content: [
        { type: 'text', text: 'The images and files returned by tool call call_9 (screenshot):' },
        { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG64}` } },
      ],
    });
  });
});
