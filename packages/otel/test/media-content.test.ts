import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { fileFromBytes, imageFromBytes, InMemorySessionStore, ReActAgent, Runner, tool } from '@replan/core';
import { callTools, ScriptedModel } from '@replan/core/testing';
import { openTelemetry } from '@replan/otel';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

// Bytes whose base64 is easy to spot in any attribute.
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(3000, 0xab)]);
const PDF = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(1200, 0xcd)]);

describe('images and files in spans, content capture on', () => {
  it('records their media types and sizes (and blob ids), never their bytes', async () => {
    const exporter = new InMemorySpanExporter();
    const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
    const snap = tool({
      name: 'snap',
      description: 'Takes a picture.',
      parameters: z.object({}),
      execute: () => [{ type: 'text' as const, text: 'a picture' }, imageFromBytes(PNG)],
    });
    const model = new ScriptedModel({ id: 'vision-model', responses: [callTools({ name: 'snap', args: {} }), 'seen'] });
    const runner = new Runner({
      agent: new ReActAgent({ name: 'viewer', model, tools: [snap] }),
      appName: 'otel-media',
      sessionStore: new InMemorySessionStore(),
      observers: [openTelemetry({ tracerProvider: provider, captureContent: true })],
    });
    const input = [{ type: 'text' as const, text: 'Look' }, imageFromBytes(PNG), fileFromBytes(PDF, { filename: 'terms.pdf' })];
    expect((await runner.run({ userId: 'u', sessionId: 's', input }).result()).status).toBe('completed');

    const spans = exporter.getFinishedSpans();
    const everything = JSON.stringify(spans.map((s) => s.attributes));
    // not the bytes, in any encoding, anywhere
    for (const bytes of [PNG, PDF]) {
      expect(everything).not.toContain(bytes.toString('base64').slice(0, 60));
      expect(everything).not.toContain(bytes.subarray(0, 400).toString('hex'));
    }
    const chats = spans.filter((s) => s.name === 'chat vision-model');
    const first = JSON.parse(chats[0]!.attributes['gen_ai.input.messages'] as string) as { role: string; parts: unknown[] }[];
    expect(first.find((m) => m.role === 'user')?.parts).toEqual([
      { type: 'text', content: 'Look' },
      expect.objectContaining({ type: 'blob', modality: 'image', mime_type: 'image/png', size: PNG.length }),
      expect.objectContaining({ type: 'blob', modality: 'file', mime_type: 'application/pdf', size: PDF.length, filename: 'terms.pdf' }),
    ]);
    // the tool's image: in the tool span's result and in the next chat's input, by type and size
    const toolSpan = spans.find((s) => s.name === 'execute_tool snap')!;
    expect(JSON.parse(toolSpan.attributes['gen_ai.tool.call.result'] as string)).toEqual([
      { type: 'text', content: 'a picture' },
      expect.objectContaining({ type: 'blob', modality: 'image', mime_type: 'image/png', size: PNG.length }),
    ]);
    const second = JSON.parse(chats[1]!.attributes['gen_ai.input.messages'] as string) as {
      parts: { type: string; response?: unknown }[];
    }[];
    const response = second.flatMap((m) => m.parts).find((p) => p.type === 'tool_call_response')?.response;
    expect(response).toEqual([
      { type: 'text', content: 'a picture' },
      expect.objectContaining({ mime_type: 'image/png', size: PNG.length }),
    ]);
  });
});
