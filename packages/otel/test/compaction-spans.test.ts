import { describe, expect, it } from 'vitest';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { SpanStatusCode } from '@opentelemetry/api';
import { ReActAgent, Runner, compaction } from '@replan/core';
import { ScriptedModel } from '@replan/core/testing';
import { openTelemetry } from '@replan/otel';
import { longStep } from '../../core/test/support/long-step.js';

/** A ReAct step that outgrows a 24k window and compacts, traced into memory. */
async function tracedLongStep(options: { captureContent?: boolean; summarizer?: ScriptedModel } = {}) {
  const exporter = new InMemorySpanExporter();
  const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const step = longStep(30);
  const summarizer = options.summarizer ?? step.summarizer;
  const agent = new ReActAgent({
    name: 'researcher',
    model: step.actor,
    tools: [step.fetchSource],
    maxIterations: 100,
    middleware: [compaction({ model: summarizer, maxInputTokens: 24_000 })],
  });
  const prices = { summarizer: { inputPerMillion: 1, outputPerMillion: 2 } };
  const runner = new Runner({ agent, appName: 'otel-compaction', prices, observers: [openTelemetry({ tracerProvider, ...options })] });
  const run = runner.run({ userId: 'u', input: 'Research the 30 sources.' });
  const records = [];
  for await (const event of run) if (event.actions?.compaction) records.push({ record: event.actions.compaction, usage: event.usage });
  return { result: await run.result(), spans: exporter.getFinishedSpans(), records, summarizer };
}

describe('openTelemetry(): compaction', () => {
  it('records a `compact {agent}` span per compaction: tokens before and after, the summarizer usage, its chat span inside', async () => {
    const { result, spans, records, summarizer } = await tracedLongStep();
    expect(result.status).toBe('completed');
    const compacts = spans.filter((s) => s.name === 'compact researcher');
    expect(records.length).toBeGreaterThan(0);
    expect(compacts).toHaveLength(records.length);
    expect(compacts).toHaveLength(summarizer.calls);
    const root = spans.find((s) => s.name === 'invoke_agent researcher');
    compacts.forEach((span, i) => {
      const { record, usage } = records[i] ?? {};
      expect(span.parentSpanContext?.spanId).toBe(root?.spanContext().spanId);
      expect(span.attributes).toMatchObject({
        'gen_ai.operation.name': 'compact',
        'gen_ai.agent.name': 'researcher',
        'gen_ai.request.model': 'summarizer',
        'replan.compaction.tokens_before': record?.tokensBefore,
        'replan.compaction.tokens_after': record?.tokensAfter,
        'replan.compaction.summarizer.input_tokens': usage?.inputTokens,
        'replan.compaction.summarizer.output_tokens': usage?.outputTokens,
      });
      expect(span.attributes['replan.compaction.tokens_after']).toBeLessThan(span.attributes['replan.compaction.tokens_before'] as number);
      expect(span.attributes['replan.cost']).toBeGreaterThan(0);
      // The summary is content: not recorded unless content capture is on.
      expect(span.attributes['replan.compaction.summary']).toBeUndefined();
      // The summarizer's own call is a chat span inside it (the one with the gen_ai usage).
      const inside = spans.filter((s) => s.parentSpanContext?.spanId === span.spanContext().spanId);
      expect(inside.map((s) => s.name)).toEqual(['chat summarizer']);
      expect(inside[0]?.attributes['gen_ai.usage.input_tokens']).toBe(usage?.inputTokens);
    });
    // Every other chat span (the acting model's) stays under the agent.
    const actorCalls = spans.filter((s) => s.name === 'chat actor');
    expect(actorCalls.every((s) => s.parentSpanContext?.spanId === root?.spanContext().spanId)).toBe(true);
  });

  it('records the summary only with content capture', async () => {
    const { spans, records } = await tracedLongStep({ captureContent: true });
    const compacts = spans.filter((s) => s.name === 'compact researcher');
    expect(compacts.map((s) => s.attributes['replan.compaction.summary'])).toEqual(records.map((r) => r.record.summary));
  });

  it('a failing summarizer marks its compact span as an error', async () => {
    const broken = new ScriptedModel({ id: 'summarizer', respond: () => '   ' });
    const { result, spans } = await tracedLongStep({ summarizer: broken });
    expect(result.status).toBe('failed');
    const [compact] = spans.filter((s) => s.name === 'compact researcher');
    expect(compact?.status.code).toBe(SpanStatusCode.ERROR);
    expect(compact?.attributes['error.type']).toBe('CompactionError');
    expect(compact?.attributes['replan.compaction.tokens_after']).toBeUndefined();
  });
});
