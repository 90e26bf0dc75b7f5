import { fileFromBytes, imageFromBytes, InMemorySessionStore, ReActAgent, Runner } from '@replan/core';
import { ScriptedModel } from '@replan/core/testing';
import { mcpServer } from '@replan/mcp';
import { afterEach, describe, expect, it } from 'vitest';
import { answerMedia, mcpMediaItem } from '../src/server/answer-media.js';
import { httpClient } from './support/mcp-client.js';
import type { McpHttpEndpoint } from '../src/server/mcp-server-options.js';

const token = 'test-token-0123456789abcdef';
const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const o of open.splice(0).reverse()) await o.close();
});

const png = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489', 'hex');
const pdf = Buffer.from('%PDF-1.4\n%%EOF\n');

describe('mcpServer: an answer with images and files', () => {
  it('returns the text, then the image as an MCP image item and the file as an embedded resource, read from the store', async () => {
    const store = new InMemorySessionStore();
    const model = new ScriptedModel({
      responses: [
        {
          message: {
            role: 'assistant',
            content: [{ type: 'text', text: 'the chart' }, imageFromBytes(png), fileFromBytes(pdf, { filename: 'report.pdf' })],
          },
          finishReason: 'stop',
        },
      ],
    });
    const runner = new Runner({
      agent: new ReActAgent({ name: 'charts', description: 'Draws charts', model }),
      appName: 'mcp-media',
      sessionStore: store,
    });
    const endpoint: McpHttpEndpoint = await mcpServer({ runners: [runner] }).listen({ token });
    open.push(endpoint);
    const client = await httpClient(endpoint.url, token);
    open.push(client);

    const result = await client.callTool({ name: 'charts', arguments: { input: 'draw' } });

    expect(result.isError).toBeFalsy();
    expect(result.content).toEqual([
      { type: 'text', text: 'the chart' },
      { type: 'image', data: png.toString('base64'), mimeType: 'image/png' },
      { type: 'resource', resource: { uri: 'replan:///report.pdf', mimeType: 'application/pdf', blob: pdf.toString('base64') } },
    ]);
  });

  it("reads a blob-sourced block from the runner's store (an answer taken from the stored log)", async () => {
    const store = new InMemorySessionStore();
    const model = new ScriptedModel({ responses: ['ok'] });
    const runner = new Runner({ agent: new ReActAgent({ name: 'a', model }), appName: 'mcp-media', sessionStore: store });
    await runner.run({ userId: 'u', sessionId: 's', input: [imageFromBytes(png)] }).result();
    const key = { appName: 'mcp-media', userId: 'u', id: 's' };
    const stored = (await store.get(key))?.events.find((e) => e.message?.role === 'user')?.message;
    expect(stored?.content[0]).toMatchObject({ type: 'image', blob: expect.any(String) });

    const [image] = await answerMedia(stored, runner, key);

    expect(image && mcpMediaItem(image)).toEqual({ type: 'image', data: png.toString('base64'), mimeType: 'image/png' });
  });
});
