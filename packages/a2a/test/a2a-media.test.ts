import { a2aAgentTool, a2aServer } from '@replan/a2a';
import { fileFromBytes, imageFromBytes, InMemorySessionStore, ReActAgent, Runner, type ModelRequest } from '@replan/core';
import { callTools, ScriptedModel } from '@replan/core/testing';
import type { Task } from '@a2a-js/sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { a2aClient, collect, send } from './support/a2a-client.js';
import type { A2aEndpoint } from '../src/server/a2a-server.js';

const endpoints: A2aEndpoint[] = [];
afterEach(async () => {
  await Promise.all(endpoints.splice(0).map((e) => e.close()));
});

const png = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489', 'hex');
const pdf = Buffer.from('%PDF-1.4\n%%EOF\n');

/** A remote agent whose answer is text, an image and a PDF, served over A2A on loopback. */
async function chartServer() {
  const model = new ScriptedModel({
    respond: () => ({
      message: {
        role: 'assistant',
        content: [{ type: 'text', text: 'the chart' }, imageFromBytes(png), fileFromBytes(pdf, { filename: 'report.pdf' })],
      },
      finishReason: 'stop',
    }),
  });
  const runner = new Runner({
    agent: new ReActAgent({ name: 'charts', description: 'Draws charts', model }),
    appName: 'a2a-media',
    sessionStore: new InMemorySessionStore(),
  });
  const endpoint = await a2aServer({ runner }).listen();
  endpoints.push(endpoint);
  return endpoint;
}

const fileParts = (task: Task) =>
  (task.artifacts.find((a) => a.artifactId === 'answer')?.parts ?? [])
    .filter((p) => p.content?.$case === 'raw')
    .map((p) => ({ bytes: Buffer.from(p.content?.value as Uint8Array).toString('base64'), mediaType: p.mediaType, filename: p.filename }));

describe('a2aServer: an answer with images and files', () => {
  it('puts them in the answer artifact as file parts (bytes, media type, name), after the text', async () => {
    const endpoint = await chartServer();
    const client = await a2aClient(endpoint.url);
    const events = await collect(client.sendMessageStream(send('draw')));
    const answer = events
      .flatMap((e) => (e.payload?.$case === 'artifactUpdate' ? [e.payload.value.artifact] : []))
      .find((a) => a?.artifactId === 'answer');
    expect(answer?.parts.map((p) => p.content?.$case)).toEqual(['text', 'raw', 'raw']);
    expect(fileParts({ artifacts: [answer] } as unknown as Task)).toEqual([
      { bytes: png.toString('base64'), mediaType: 'image/png', filename: '' },
      { bytes: pdf.toString('base64'), mediaType: 'application/pdf', filename: 'report.pdf' },
    ]);
  });
});

describe('a2aAgentTool: a remote answer with images and files', () => {
  it('gives the local model the text, then an image block and a file block', async () => {
    const endpoint = await chartServer();
    const remote = a2aAgentTool(endpoint.url, { name: 'charts', description: 'Draws charts' });
    const model = new ScriptedModel({
      respond: (request: ModelRequest) =>
        request.messages.some((m) => m.content.some((b) => b.type === 'tool_result'))
          ? 'got it'
          : callTools({ name: 'charts', args: { input: 'draw' } }),
    });
    const runner = new Runner({
      agent: new ReActAgent({ name: 'local', model, tools: [remote] }),
      appName: 'local',
      sessionStore: new InMemorySessionStore(),
    });
    expect((await runner.run({ userId: 'u', input: 'chart it' }).result()).status).toBe('completed');
    const sent = model.requests[1]?.messages.flatMap((m) => m.content) ?? [];
    const result = sent.find((b) => b.type === 'tool_result');
    expect(result?.type === 'tool_result' && result.output).toEqual([
      { type: 'text', text: 'the chart' },
      { type: 'image', mediaType: 'image/png', data: png.toString('base64') },
      { type: 'file', mediaType: 'application/pdf', filename: 'report.pdf', data: pdf.toString('base64') },
    ]);
  });
});
