import type { ContentBlock, Message } from '@replan/core';
import {
  COMMON_IMAGE_TYPES,
  ConfigurationError,
  fileFromBytes,
  imageFromBytes,
  imageFromUrl,
  toolMessage,
  userMessage,
} from '@replan/core';
import { describe, expect, it } from 'vitest';
import { OpenAIChatModel, UnsupportedMediaError, type MediaProfileName } from '../src/index.js';
import { detectMediaProfile } from '../src/media/media-profile.js';
import { useFakeServer } from './support/fake-server.js';
import { chunk, completion } from './support/payloads.js';
import { bothWays } from './support/run.js';

const server = useFakeServer();

// A 1×1 PNG, a small PDF header and a CSV: real bytes, so the helpers sniff their types.
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');
const PNG64 = PNG.toString('base64');
const PDF = Buffer.from('%PDF-1.4\n%âãÏÓ\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF');
const PDF64 = PDF.toString('base64');

const modelFor = (media?: MediaProfileName, model = 'vision-model', imageTypes?: readonly string[]) =>
  new OpenAIChatModel({
    model,
    baseURL: server.baseURL,
    apiKey: 'k',
    maxRetries: 0,
    profile: 'plain',
    ...(media ? { media } : {}),
    ...(imageTypes ? { imageTypes } : {}),
  });

/** Sends `messages` through the real client and returns the body the server received. */
async function sent(model: OpenAIChatModel, messages: Message[]): Promise<any> {
  server.reply({ json: completion({ content: 'ok' }) });
  await model.generate({ messages });
  return server.last;
}

const user = (...content: ContentBlock[]): Message => ({ role: 'user', content });

describe('images and files in user messages (Chat Completions)', () => {
  it('an inline image is an image_url with a data URL (and its detail); a URL image keeps its URL', async () => {
    const body = await sent(modelFor('openai'), [
      user(
        { type: 'text', text: 'What is in these?' },
        imageFromBytes(PNG, { detail: 'high' }),
        imageFromUrl('https://example.com/chart.jpg'),
      ),
    ]);
    expect(body.messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'What is in these?' },
          { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG64}`, detail: 'high' } },
          { type: 'image_url', image_url: { url: 'https://example.com/chart.jpg' } },
        ],
      },
    ]);
  });

  it('a PDF is a file part with file_data (a data URL) and filename; an inline text file is a text part', async () => {
    const body = await sent(modelFor('openai'), [
      user(
        fileFromBytes(PDF, { filename: 'invoice.pdf' }),
        fileFromBytes(Buffer.from('item,price\nbolt,2\n'), { mediaType: 'text/csv', filename: 'items.csv' }),
        { type: 'text', text: 'Total?' },
      ),
    ]);
    expect(body.messages[0].content).toEqual([
      { type: 'file', file: { filename: 'invoice.pdf', file_data: `data:application/pdf;base64,${PDF64}` } },
      { type: 'text', text: '[file items.csv (text/csv)]\nitem,price\nbolt,2\n' },
      { type: 'text', text: 'Total?' },
    ]);
  });

  it('a message without media keeps its content as one string (the wire is unchanged)', async () => {
    const body = await sent(modelFor('openai'), [userMessage('hello')]);
    expect(body.messages).toEqual([{ role: 'user', content: 'hello' }]);
  });

  it('a blob that reached the model without its bytes is an invalid_request ModelError saying how to pass it, and nothing is sent', async () => {
    const blob = { type: 'image' as const, mediaType: 'image/png', blob: 'a'.repeat(64), size: 68 };
    await expect(modelFor('openai').generate({ messages: [user(blob)] })).rejects.toMatchObject({
      name: 'ModelError',
      kind: 'invalid_request',
      message: expect.stringMatching(/names blob "a{64}" without its bytes.*imageFromBytes/),
    });
    expect(server.received).toHaveLength(0);
  });
});

describe('tool results with images (Chat Completions: tool messages carry text only)', () => {
  const callTurn: Message = {
    role: 'assistant',
    content: [
      { type: 'tool_call', id: 'call_shot', name: 'screenshot', args: {} },
      { type: 'tool_call', id: 'call_w', name: 'weather', args: {} },
    ],
  };

  it('the tool message names the image; the image follows the tool messages in a user message naming the call', async () => {
    const body = await sent(modelFor('openai'), [
      userMessage('look at the page'),
      callTurn,
      toolMessage([
        {
          type: 'tool_result',
          toolCallId: 'call_shot',
          name: 'screenshot',
          output: [{ type: 'text', text: 'the page' }, imageFromBytes(PNG)],
        },
      ]),
      toolMessage([{ type: 'tool_result', toolCallId: 'call_w', name: 'weather', output: { temp: 21 } }]),
    ]);
    expect(body.messages.slice(2)).toEqual([
      { role: 'tool', tool_call_id: 'call_shot', content: 'the page\n[image image/png] (attached in the next user message)' },
      { role: 'tool', tool_call_id: 'call_w', content: '{"temp":21}' },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'The images and files returned by tool call call_shot (screenshot):' },
          { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG64}` } },
        ],
      },
    ]);
  });

  it('when a user message follows, the tool images go first in it', async () => {
    const body = await sent(modelFor('openai'), [
      userMessage('look'),
      { role: 'assistant', content: [{ type: 'tool_call', id: 'call_shot', name: 'screenshot', args: {} }] },
      toolMessage([{ type: 'tool_result', toolCallId: 'call_shot', name: 'screenshot', output: [imageFromBytes(PNG)] }]),
      userMessage('and now?'),
    ]);
    expect(body.messages.at(-1)).toEqual({
      role: 'user',
      content: [
        { type: 'text', text: 'The images and files returned by tool call call_shot (screenshot):' },
        { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG64}` } },
        { type: 'text', text: 'and now?' },
      ],
    });
    expect(body.messages.filter((m: { role: string }) => m.role === 'user')).toHaveLength(2);
  });
});

describe('what each server takes (media profiles)', () => {
  it.each([
    [
      'openai',
      imageFromBytes(PNG, { mediaType: 'image/svg+xml' }),
      /OpenAI.*image\/svg\+xml.*image\/png, image\/jpeg, image\/webp, image\/gif/,
    ],
    ['gemini', imageFromBytes(PNG, { mediaType: 'image/gif' }), /Gemini's OpenAI-compatible endpoint.*image\/gif/],
    ['gemini', imageFromUrl('https://example.com/a.png'), /Gemini's OpenAI-compatible endpoint.*inline only/],
    ['ollama', imageFromBytes(PNG, { mediaType: 'image/webp' }), /Ollama.*image\/webp.*image\/png, image\/jpeg/],
    ['ollama', fileFromBytes(PDF), /Ollama.*application\/pdf.*takes no files/],
    [
      'openai',
      fileFromBytes(Buffer.from('PK'), { mediaType: 'application/zip', filename: 'a.zip' }),
      /OpenAI.*application\/zip.*application\/pdf/,
    ],
    ['openai', { type: 'file', mediaType: 'application/pdf', url: 'https://example.com/a.pdf' }, /OpenAI.*inline only/],
    ['openrouter', imageFromBytes(PNG, { mediaType: 'image/heic' }), /OpenRouter.*image\/heic/],
    [
      'generic',
      imageFromBytes(PNG, { mediaType: 'image/svg+xml' }),
      /an OpenAI-compatible server.*image\/svg\+xml.*image\/png, image\/jpeg, image\/webp, image\/gif.*add it to the model's imageTypes option/,
    ],
    ['litellm', imageFromBytes(PNG, { mediaType: 'image/svg+xml' }), /LiteLLM.*image\/svg\+xml.*image\/png, image\/jpeg/],
    ['litellm', imageFromUrl('https://example.com/a.tiff', { mediaType: 'image/tiff' }), /LiteLLM.*image\/tiff/],
  ] as const)(
    '%s refuses %o with UnsupportedMediaError naming the type and the provider, before sending',
    async (media, block, message) => {
      const failure = await modelFor(media)
        .generate({ messages: [user(block as ContentBlock)] })
        .catch((e: unknown) => e);
      expect(failure).toBeInstanceOf(UnsupportedMediaError);
      expect((failure as UnsupportedMediaError).mediaType).toBe((block as { mediaType: string }).mediaType);
      expect((failure as Error).message).toMatch(message);
      expect((failure as Error).message).toContain('model "vision-model"');
      expect(server.received).toHaveLength(0);
    },
  );

  it('an image a tool returned that the server does not take (an SVG) is told to the model as text; the request still goes', async () => {
    const svg = {
      type: 'image',
      mediaType: 'image/svg+xml',
      data: Buffer.from('<svg><script>alert(1)</script></svg>').toString('base64'),
    } as const;
    const body = await sent(modelFor('openai'), [
      userMessage('draw'),
      { role: 'assistant', content: [{ type: 'tool_call', id: 'call_svg', name: 'render', args: {} }] },
      toolMessage([{ type: 'tool_result', toolCallId: 'call_svg', name: 'render', output: [svg] }]),
    ]);
    const attached = body.messages.at(-1).content;
    expect(JSON.stringify(body)).not.toContain('image/svg+xml;base64');
    expect(attached[1]).toEqual({
      type: 'text',
      text: expect.stringMatching(
        /^\[image image\/svg\+xml returned by the tool was not sent: .*OpenAI.*image\/png, image\/jpeg, image\/webp, image\/gif/,
      ),
    });
  });

  it("Gemini's endpoint gets inline images without detail (it refuses fields it does not know)", async () => {
    const body = await sent(modelFor('gemini'), [user(imageFromBytes(PNG, { detail: 'low' }))]);
    expect(body.messages[0].content).toEqual([{ type: 'image_url', image_url: { url: `data:image/png;base64,${PNG64}` } }]);
  });

  it('Ollama takes PNG inline and by URL', async () => {
    const body = await sent(modelFor('ollama'), [user(imageFromBytes(PNG), imageFromUrl('http://files.local/a.jpg'))]);
    expect(body.messages[0].content.map((p: any) => p.image_url.url)).toEqual([
      `data:image/png;base64,${PNG64}`,
      'http://files.local/a.jpg',
    ]);
  });

  it('an image a tool returned that a generic server does not take (an SVG) is told to the model as text', async () => {
    const svg = {
      type: 'image',
      mediaType: 'image/svg+xml',
      data: Buffer.from('<svg><script>alert(1)</script></svg>').toString('base64'),
    } as const;
    const body = await sent(modelFor('generic'), [
      userMessage('draw'),
      { role: 'assistant', content: [{ type: 'tool_call', id: 'call_svg', name: 'render', args: {} }] },
      toolMessage([{ type: 'tool_result', toolCallId: 'call_svg', name: 'render', output: [svg] }]),
    ]);
    expect(JSON.stringify(body)).not.toContain('image/svg+xml;base64');
    expect(body.messages.at(-1).content[1].text).toMatch(
      /^\[image image\/svg\+xml returned by the tool was not sent: .*OpenAI-compatible server/,
    );
  });

  it("imageTypes replaces the profile's image types (a server that takes HEIC); a type that is not an image is a ConfigurationError", async () => {
    const heic = imageFromBytes(PNG, { mediaType: 'image/heic' });
    const body = await sent(modelFor('generic', 'vision-model', [...COMMON_IMAGE_TYPES, 'image/HEIC']), [user(heic)]);
    expect(body.messages[0].content).toEqual([{ type: 'image_url', image_url: { url: `data:image/heic;base64,${PNG64}` } }]);
    await expect(modelFor('openai', 'vision-model', ['image/heic']).generate({ messages: [user(imageFromBytes(PNG))] })).rejects.toThrow(
      /model "vision-model" \(OpenAI\) does not take image\/png: it takes image\/heic images/,
    );
    expect(() => modelFor('generic', 'vision-model', ['application/pdf'])).toThrow(ConfigurationError);
    expect(() => modelFor('generic', 'vision-model', ['application/pdf'])).toThrow(
      /imageTypes lists "application\/pdf", which is not an image/,
    );
  });

  it('LiteLLM takes any file and a file URL as file_id with its format; OpenRouter a PDF URL in file_data', async () => {
    const pdfUrl = { type: 'file' as const, mediaType: 'application/pdf', url: 'https://example.com/report.pdf', filename: 'report.pdf' };
    const litellm = await sent(modelFor('litellm'), [user(pdfUrl, imageFromBytes(PNG, { mediaType: 'image/webp' }))]);
    expect(litellm.messages[0].content).toEqual([
      { type: 'file', file: { file_id: 'https://example.com/report.pdf', format: 'application/pdf' } },
      { type: 'image_url', image_url: { url: `data:image/webp;base64,${PNG64}` } },
    ]);
    const openrouter = await sent(modelFor('openrouter'), [user(pdfUrl)]);
    expect(openrouter.messages[0].content).toEqual([
      { type: 'file', file: { filename: 'report.pdf', file_data: 'https://example.com/report.pdf' } },
    ]);
  });

  it('the profile is detected from the base URL and the reasoning profile', () => {
    expect(detectMediaProfile(undefined, 'openai')).toBe('openai');
    expect(detectMediaProfile('https://openrouter.ai/api/v1', 'openrouter')).toBe('openrouter');
    expect(detectMediaProfile('https://generativelanguage.googleapis.com/v1beta/openai/', 'gemini')).toBe('gemini');
    expect(detectMediaProfile('http://localhost:11434/v1', 'plain')).toBe('ollama');
    expect(detectMediaProfile('http://localhost:4000/v1', 'plain')).toBe('litellm');
    expect(detectMediaProfile('http://proxy.internal/v1', 'anthropic')).toBe('litellm');
    expect(detectMediaProfile('http://localhost:8000/v1', 'plain')).toBe('generic');
    expect(new OpenAIChatModel({ model: 'llava', baseURL: 'http://localhost:11434/v1', apiKey: 'k' }).media).toBe('ollama');
  });
});

describe('images a model returns (OpenRouter and LiteLLM image models: message.images)', () => {
  it('become image blocks after the text, streamed and not', async () => {
    const image = { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG64}` }, index: 0 };
    const { generated } = await bothWays(server, modelFor('openrouter'), {
      sse: { sse: [chunk({ role: 'assistant', content: 'Here it is.' }), chunk({ images: [image] }), chunk({}, 'stop')] },
      json: { json: completion({ content: 'Here it is.', images: [image] }) },
    });
    expect(generated.message.content).toEqual([
      { type: 'text', text: 'Here it is.' },
      { type: 'image', mediaType: 'image/png', data: PNG64 },
    ]);
  });

  it('an image URL that is not inline stays a URL', async () => {
    server.reply({
      json: completion({ content: '', images: [{ type: 'image_url', image_url: { url: 'https://cdn.example/out.webp' } }] }),
    });
    const response = await modelFor('openrouter').generate({ messages: [userMessage('draw')] });
    expect(response.message.content).toEqual([{ type: 'image', mediaType: 'image/webp', url: 'https://cdn.example/out.webp' }]);
  });

  it('on the next turn the assistant message names its image in its text (assistant content is text only)', async () => {
    const body = await sent(modelFor('openrouter'), [
      userMessage('draw'),
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Here it is.' },
          { type: 'image', mediaType: 'image/png', data: PNG64 },
        ],
      },
      userMessage('bigger'),
    ]);
    expect(body.messages[1]).toEqual({ role: 'assistant', content: 'Here it is.\n[image image/png]' });
    expect(JSON.stringify(body)).not.toContain(PNG64);
  });
});
