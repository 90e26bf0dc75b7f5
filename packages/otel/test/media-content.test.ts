import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ReActAgent, Runner, imageFromBytes, tool } from '@replan/core';
import { ScriptedModel, callTools } from '@replan/core/testing';
import { openTelemetry } from '@replan/otel';

describe('openTelemetry() with images and files', () => {
  it('records their sizes and media types, never their bytes, even when content is captured', async () => {
    const exporter = new InMemorySpanExporter();
    const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
    const input = imageFromBytes(Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(3000, 7)]));
    const shot = imageFromBytes(Buffer.alloc(2000, 9), { mediaType: 'image/jpeg' });
    const screenshot = tool({
      name: 'shot',
      description: 'screenshot',
      parameters: z.object({}),
      execute: () => [{ type: 'text' as const, text: 'the page' }, shot],
    });
    const model = new ScriptedModel({ responses: [callTools({ name: 'shot', args: {} }), 'done'] });
    const runner = new Runner({
      agent: new ReActAgent({ name: 'eye', model, tools: [screenshot] }),
      appName: 'otel-media',
      observers: [openTelemetry({ tracerProvider: provider, captureContent: true })],
    });
    expect((await runner.run({ userId: 'u', input: [{ type: 'text', text: 'look' }, input] }).result()).status).toBe('completed');

    const values = exporter.getFinishedSpans().flatMap((s) => Object.values(s.attributes).map(String));
    for (const data of [input.data as string, shot.data as string]) expect(values.some((v) => v.includes(data.slice(0, 64)))).toBe(false);
    const chats = exporter.getFinishedSpans().filter((s) => s.attributes['gen_ai.operation.name'] === 'chat');
    const last = JSON.parse(chats.at(-1)!.attributes['gen_ai.input.messages'] as string) as { role: string; parts: unknown[] }[];
    expect(last.find((m) => m.role === 'user')?.parts).toContainEqual(
      expect.objectContaining({ type: 'blob', modality: 'image', mime_type: 'image/png', size: 3008 }),
    );
    expect(last.find((m) => m.role === 'tool')?.parts).toContainEqual({
      type: 'tool_call_response',
      id: expect.any(String),
      response: [
        { type: 'text', content: 'the page' },
        expect.objectContaining({ type: 'blob', modality: 'image', mime_type: 'image/jpeg', size: 2000 }),
      ],
    });
    const toolSpan = exporter.getFinishedSpans().find((s) => s.attributes['gen_ai.tool.name'] === 'shot');
    expect(JSON.parse(toolSpan?.attributes['gen_ai.tool.call.result'] as string)).toEqual([
      { type: 'text', content: 'the page' },
      { type: 'blob', modality: 'image', mime_type: 'image/jpeg', size: 2000 },
    ]);
  });
});
