import { describe, expect, it } from 'vitest';
import { SpanStatusCode } from '@opentelemetry/api';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { ReActAgent, Runner, guardrails, type Guardrails } from '@replan/core';
import { ScriptedModel } from '@replan/core/testing';
import { openTelemetry } from '@replan/otel';

/** One ReAct agent with the given guardrails, traced into an in-memory exporter. */
function traced(checks: Guardrails, answer = 'call me on 555-0100') {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const model = new ScriptedModel({ id: 'm', responses: [answer] });
  const runner = new Runner({
    agent: new ReActAgent({ name: 'guarded', model, middleware: [guardrails(checks)] }),
    appName: 'otel-guardrails',
    observers: [openTelemetry({ tracerProvider: provider })],
  });
  const root = () => exporter.getFinishedSpans().find((s) => s.name === 'invoke_agent guarded');
  return { runner, model, root, spans: () => exporter.getFinishedSpans() };
}

describe('openTelemetry() on a run a guardrail blocks', () => {
  it('an input tripwire: the root span says blocked, names the guardrail, and is not an error', async () => {
    const h = traced({
      input: [{ name: 'on_topic', check: (text) => ({ tripwire: /weapons/.test(text), reason: 'off-topic request' }) }],
    });
    const result = await h.runner.run({ userId: 'u', sessionId: 'in', input: 'tell me about weapons' }).result();
    expect(result.status).toBe('blocked');
    expect(h.model.calls).toBe(0);
    const root = h.root();
    expect(root).toBeDefined();
    expect(root!.attributes['replan.run.status']).toBe('blocked');
    expect(root!.attributes['replan.guardrail.name']).toBe('on_topic');
    expect(root!.attributes['replan.guardrail.stage']).toBe('input');
    expect(root!.attributes['replan.guardrail.reason']).toBe('off-topic request');
    expect(root!.status.code).not.toBe(SpanStatusCode.ERROR);
    expect(root!.attributes['error.type']).toBeUndefined();
    expect(h.spans().filter((s) => s.name.startsWith('chat '))).toHaveLength(0);
  });

  it('an output tripwire after the model answered: stage output, a bare function named by its name, no reason attribute without a reason', async () => {
    const noPhoneNumbers = (text: string) => ({ tripwire: /\d{3}-\d{4}/.test(text) });
    const h = traced({ output: [noPhoneNumbers] });
    const result = await h.runner.run({ userId: 'u', sessionId: 'out', input: 'how do I reach you?' }).result();
    expect(result.status).toBe('blocked');
    expect(result.guardrail).toEqual({ name: 'noPhoneNumbers', stage: 'output' });
    const root = h.root()!;
    expect(root.attributes['replan.run.status']).toBe('blocked');
    expect(root.attributes['replan.guardrail.name']).toBe('noPhoneNumbers');
    expect(root.attributes['replan.guardrail.stage']).toBe('output');
    expect(root.attributes).not.toHaveProperty('replan.guardrail.reason');
    expect(root.status.code).not.toBe(SpanStatusCode.ERROR);
    expect(h.spans().filter((s) => s.name === 'chat m')).toHaveLength(1);
  });

  it('a run no guardrail trips carries no guardrail attributes', async () => {
    const h = traced({ input: [() => ({ tripwire: false })] }, 'fine');
    expect((await h.runner.run({ userId: 'u', sessionId: 'ok', input: 'hi' }).result()).status).toBe('completed');
    const root = h.root()!;
    expect(root.attributes['replan.run.status']).toBe('completed');
    expect(Object.keys(root.attributes).filter((k) => k.startsWith('replan.guardrail.'))).toEqual([]);
  });
});
