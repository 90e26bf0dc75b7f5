import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  InvalidMediaError,
  ReActAgent,
  Runner,
  fileFromBytes,
  fileFromPath,
  fileFromUrl,
  imageFromBytes,
  imageFromFile,
  imageFromUrl,
  stringifyToolOutput,
  tool,
  toolResultsOf,
} from '@replan/core';
import { isBase64, toolResultContent } from '@replan/core/agent-kit';

import { ScriptedModel, callTools } from '@replan/core/testing';
import { collect } from './support.js';
import { parseAgentEvent } from '../src/events/event-schema.js';

const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 255]);
const PDF = new TextEncoder().encode('%PDF-1.7\n%…');
const dir = await mkdtemp(join(tmpdir(), 'replan-media-'));
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('media block helpers', () => {
  it('build image blocks from bytes, a path and a URL, telling the media type from the bytes or the name', async () => {
    const fromBytes = imageFromBytes(PNG, { detail: 'low' });
    expect(fromBytes).toEqual({ type: 'image', mediaType: 'image/png', data: Buffer.from(PNG).toString('base64'), detail: 'low' });
    expect(Buffer.from(fromBytes.data as string, 'base64')).toEqual(Buffer.from(PNG));

    const path = join(dir, 'shot.png');
    await writeFile(path, PNG);
    expect(await imageFromFile(path)).toEqual({ type: 'image', mediaType: 'image/png', data: fromBytes.data });

    expect(imageFromUrl('https://example.com/a/chart.JPG?x=1')).toEqual({
      type: 'image',
      mediaType: 'image/jpeg',
      url: 'https://example.com/a/chart.JPG?x=1',
    });
    // A data: URL becomes inline data.
    expect(imageFromUrl(`data:image/png;base64,${fromBytes.data}`)).toEqual({
      type: 'image',
      mediaType: 'image/png',
      data: fromBytes.data,
    });
  });

  it('build file blocks with a filename from the path or URL', async () => {
    const path = join(dir, 'invoice.pdf');
    await writeFile(path, PDF);
    expect(await fileFromPath(path)).toEqual({
      type: 'file',
      mediaType: 'application/pdf',
      filename: 'invoice.pdf',
      data: Buffer.from(PDF).toString('base64'),
    });
    expect(fileFromBytes(new TextEncoder().encode('a,b\n'), { filename: 'rows.csv' })).toMatchObject({
      mediaType: 'text/csv',
      filename: 'rows.csv',
    });
    expect(fileFromUrl('https://example.com/docs/report%201.pdf')).toEqual({
      type: 'file',
      mediaType: 'application/pdf',
      filename: 'report 1.pdf',
      url: 'https://example.com/docs/report%201.pdf',
    });
  });

  it('refuse what they cannot type, and a URL that is not one, with InvalidMediaError saying what to pass', () => {
    expect(() => imageFromBytes(new Uint8Array([1, 2, 3]))).toThrow(InvalidMediaError);
    expect(() => imageFromBytes(new Uint8Array([1, 2, 3]))).toThrow(/pass \{ mediaType \}/);
    expect(imageFromBytes(new Uint8Array([1, 2, 3]), { mediaType: 'image/bmp' }).mediaType).toBe('image/bmp');
    expect(() => imageFromUrl('https://example.com/picture')).toThrow(/pass \{ mediaType \}/);
    expect(() => imageFromUrl('not a url')).toThrow(InvalidMediaError);
    expect(() => imageFromUrl('data:image/png;base64,@@@@')).toThrow(/not valid base64/);
  });

  it('isBase64 takes padded standard base64 only', () => {
    expect(isBase64('aGVsbG8=')).toBe(true);
    expect(isBase64('')).toBe(true);
    expect(isBase64('aGVsbG8')).toBe(false); // unpadded
    expect(isBase64('a-_b')).toBe(false); // base64url
    expect(isBase64('aGVs\nbG8=')).toBe(false);
  });
});

describe('media blocks in events', () => {
  const event = (content: unknown[]) => ({
    id: 'e1',
    invocationId: 'i1',
    author: 'user',
    path: 'user',
    timestamp: 1,
    message: { role: 'user', content },
  });

  it('the event schema takes images and files with one source each', () => {
    const image = imageFromBytes(PNG);
    const blob = { type: 'file', mediaType: 'application/pdf', blob: 'a'.repeat(64), size: 10, filename: 'x.pdf' };
    const url = { type: 'image', mediaType: 'image/png', url: 'https://example.com/x.png', detail: 'high' };
    expect(parseAgentEvent(event([image, blob, url])).message?.content).toEqual([image, blob, url]);
  });

  it('refuses data that is not base64, two sources, a bad blob id or a missing size', () => {
    const bad = [
      { type: 'image', mediaType: 'image/png', data: 'not base64!' },
      { type: 'image', mediaType: 'image/png', data: 'aGk=', url: 'https://example.com/x.png' },
      { type: 'file', mediaType: 'application/pdf', blob: 'XYZ', size: 1 },
      { type: 'file', mediaType: 'application/pdf', blob: 'a'.repeat(64) },
      { type: 'image', data: 'aGk=' },
    ];
    for (const block of bad) expect(() => parseAgentEvent(event([block]))).toThrow();
    expect(() => parseAgentEvent(event([bad[0]]))).toThrow(/not valid base64/);
  });

  it('a run whose input holds bad base64 is refused with InvalidMediaError before anything is stored', async () => {
    const model = new ScriptedModel({ responses: ['seen'] });
    const runner = new Runner({ agent: new ReActAgent({ name: 'a', model }), appName: 'media' });
    const run = runner.run({ userId: 'u', sessionId: 's', input: [{ type: 'image', mediaType: 'image/png', data: '%%%' }] });
    await expect(run.result()).rejects.toThrow(InvalidMediaError);
    await expect(run.result()).rejects.toThrow(/the run's input, block 1/);
    expect(await runner.sessionStore.get({ appName: 'media', userId: 'u', id: 's' })).toBeUndefined();
    expect(model.requests).toHaveLength(0);
  });

  it('a run takes images and files in its input and the model gets them', async () => {
    const model = new ScriptedModel({ responses: ['a chart'] });
    const runner = new Runner({ agent: new ReActAgent({ name: 'a', model }), appName: 'media' });
    const image = imageFromBytes(PNG);
    const { result } = await collect(runner.run({ userId: 'u', input: [{ type: 'text', text: 'What is this?' }, image] }));
    expect(result.status).toBe('completed');
    expect(model.requests[0]?.messages.at(-1)?.content).toEqual([{ type: 'text', text: 'What is this?' }, image]);
  });
});

describe('tools that return content blocks', () => {
  const PNG_BLOCK = imageFromBytes(PNG);
  const screenshot = tool({
    name: 'screenshot',
    description: 'Takes a screenshot',
    parameters: z.object({}),
    execute: () => [{ type: 'text' as const, text: 'the page' }, PNG_BLOCK],
  });

  it('the model is shown the blocks; as text they read with a placeholder', async () => {
    const model = new ScriptedModel({ responses: [callTools({ name: 'screenshot', args: {} }), 'done'] });
    const runner = new Runner({ agent: new ReActAgent({ name: 'a', model, tools: [screenshot] }), appName: 'media' });
    const { result } = await collect(runner.run({ userId: 'u', input: 'look' }));
    expect(result.status).toBe('completed');
    const [shown] = (model.requests[1]?.messages ?? []).flatMap((m) => toolResultsOf(m));
    expect(shown?.output).toEqual([{ type: 'text', text: 'the page' }, PNG_BLOCK]);
    expect(toolResultContent(shown?.output)).toHaveLength(2);
    expect(stringifyToolOutput(shown?.output)).toBe('the page\n[image image/png]');
  });

  it('JSON arrays that are not content blocks stay JSON', () => {
    expect(toolResultContent([{ type: 'row', n: 1 }])).toBeUndefined();
    expect(toolResultContent([])).toBeUndefined();
    expect(stringifyToolOutput([{ type: 'text', text: 1 }])).toBe('[{"type":"text","text":1}]');
  });

  it('a tool returning an image with bad base64 gives the model an error result naming it', async () => {
    const broken = tool({
      name: 'broken',
      description: '',
      parameters: z.object({}),
      execute: () => [{ type: 'image' as const, mediaType: 'image/png', data: 'no!' }],
    });
    const model = new ScriptedModel({ responses: [callTools({ name: 'broken', args: {} }), 'sorry'] });
    const runner = new Runner({ agent: new ReActAgent({ name: 'a', model, tools: [broken] }), appName: 'media' });
    const { result } = await collect(runner.run({ userId: 'u', input: 'x' }));
    expect(result.status).toBe('completed');
    const [shown] = (model.requests[1]?.messages ?? []).flatMap((m) => toolResultsOf(m));
    expect(shown?.isError).toBe(true);
    expect(shown?.output).toMatch(/returned an invalid image or file \(block 1: data is not valid base64/);
  });
});
