import { describe, expect, it } from 'vitest';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { z } from 'zod';
import { Runner, tool, type RunObserver } from '@replan/core';
import { createPlanExecuteAgent } from '@replan/planexecute';
import { scriptPlanExecute } from '@replan/planexecute/testing';
import { openTelemetry } from '@replan/otel';
import { codeTool } from '@replan/code';

/** The lifecycle a runner reports for a code call whose program makes two calls (ids `<codeCallId>#<n>`). */
function traceCodeCall(observer: RunObserver, innerIds: readonly string[]) {
  const scope = { appName: 'a', userId: 'u', sessionId: 's', invocationId: 'inv', time: 1 };
  const agent = { ...scope, agentRunId: 'r1', agent: 'executor', path: 'executor' };
  observer.onRunStart?.({ ...scope, kind: 'run-start', agent: 'executor', resumed: false });
  observer.onAgentStart?.({ ...agent, kind: 'agent-start', operation: 'invoke_agent' });
  const tool = (toolName: string, toolCallId: string) => ({ ...agent, toolName, toolCallId, args: {} });
  observer.onToolCallStart?.({ ...tool('run_code', 'call_1'), kind: 'tool-call-start' });
  for (const id of innerIds) {
    observer.onToolCallStart?.({ ...tool('fetch_invoice', id), kind: 'tool-call-start' });
    observer.onToolCallEnd?.({
      ...tool('fetch_invoice', id),
      kind: 'tool-call-end',
      output: { ok: true },
      isError: false,
      durationMs: 1,
    } as never);
  }
  observer.onToolCallEnd?.({ ...tool('run_code', 'call_1'), kind: 'tool-call-end', output: [], isError: false, durationMs: 3 } as never);
  observer.onAgentEnd?.({ ...agent, kind: 'agent-end', durationMs: 4 });
  observer.onRunEnd?.({ ...scope, kind: 'run-end', status: 'completed', usage: { inputTokens: 0, outputTokens: 0 }, cost: 0 });
}

describe('openTelemetry(): code steps', () => {
  it("nests each inner call's execute_tool span under its code call's span, with the call's number", () => {
    const exporter = new InMemorySpanExporter();
    const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
    traceCodeCall(openTelemetry({ tracerProvider }), ['call_1#0', 'call_1#1']);
    const spans = exporter.getFinishedSpans();
    const code = spans.find((s) => s.name === 'execute_tool run_code');
    const inner = spans.filter((s) => s.name === 'execute_tool fetch_invoice');
    expect(inner).toHaveLength(2);
    for (const [n, span] of inner.entries()) {
      expect(span.parentSpanContext?.spanId).toBe(code?.spanContext().spanId);
      expect(span.attributes['replan.code_call.index']).toBe(n);
      expect(span.attributes['gen_ai.tool.call.id']).toBe(`call_1#${n}`);
    }
    // The code call itself stays under the agent's span (the run's root here).
    const root = spans.find((s) => s.name === 'invoke_agent executor');
    expect(code?.parentSpanContext?.spanId).toBe(root?.spanContext().spanId);
    expect(code?.attributes['replan.code_call.index']).toBeUndefined();
  });

  it('an id that only looks like an inner call (no open code call, or no number after #) stays under its agent', () => {
    const exporter = new InMemorySpanExporter();
    const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
    traceCodeCall(openTelemetry({ tracerProvider }), ['other#0', 'call_1#x', 'call_1#']);
    const spans = exporter.getFinishedSpans();
    const root = spans.find((s) => s.name === 'invoke_agent executor');
    const inner = spans.filter((s) => s.name === 'execute_tool fetch_invoice');
    expect(inner).toHaveLength(3);
    for (const span of inner) {
      expect(span.parentSpanContext?.spanId).toBe(root?.spanContext().spanId);
      expect(span.attributes['replan.code_call.index']).toBeUndefined();
    }
  });
});

describe('openTelemetry(): a real code step', () => {
  it("a plan step's program: each inner call's span sits under the run_code span, in call order", async () => {
    const exporter = new InMemorySpanExporter();
    const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
    const lookup = tool({
      name: 'lookup',
      description: 'looks up',
      parameters: z.object({ q: z.string() }),
      execute: ({ q }) => `found ${q}`,
    });
    const program = "const out = []; for (const q of ['a', 'b', 'c']) out.push(await tools.lookup({ q })); return out;";
    const models = scriptPlanExecute({
      plan: { steps: ['look up a, b and c'] },
      steps: { 'look up a, b and c': { toolCalls: [{ name: 'run_code', args: { program } }], text: 'found all three' } },
      answer: 'found all three',
    });
    const agent = createPlanExecuteAgent({ model: models.model, tools: [codeTool({ tools: [lookup] })] });
    const runner = new Runner({ agent, appName: 'otel-code', observers: [openTelemetry({ tracerProvider })] });
    const result = await runner.run({ userId: 'u', input: 'look them up' }).result();
    expect(result.status, result.error?.message).toBe('completed');
    const spans = exporter.getFinishedSpans();
    const code = spans.filter((s) => s.name === 'execute_tool run_code');
    expect(code).toHaveLength(1);
    const inner = spans
      .filter((s) => s.name === 'execute_tool lookup')
      .sort((a, b) => Number(a.attributes['replan.code_call.index']) - Number(b.attributes['replan.code_call.index']));
    expect(inner.map((s) => s.attributes['replan.code_call.index'])).toEqual([0, 1, 2]);
    for (const span of inner) expect(span.parentSpanContext?.spanId).toBe(code[0]?.spanContext().spanId);
    const codeId = code[0]?.attributes['gen_ai.tool.call.id'];
    expect(inner.map((s) => s.attributes['gen_ai.tool.call.id'])).toEqual([0, 1, 2].map((n) => `${codeId}#${n}`));
  });
});
