import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { InMemorySpanExporter, SimpleSpanProcessor, BasicTracerProvider, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import {
  FileSessionStore,
  InMemorySessionStore,
  ReActAgent,
  Runner,
  agentTool,
  fallbackModel,
  type SessionStore,
  type Usage,
} from '@replan/core';
import { addUsage, emptyUsage } from '@replan/core/agent-kit';
import { ScriptedModel, callTools } from '@replan/core/testing';
import { openTelemetry } from '@replan/otel';
import { planExecuteScenario } from './plan-execute-run.js';

function tracing() {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  return { exporter, provider };
}

const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId;
const byName = (spans: readonly ReadableSpan[], name: string) => spans.filter((s) => s.name === name);
const toMs = (t: [number, number]) => t[0] * 1e3 + t[1] / 1e6;

/**
 * Runs the scenario: the first run stops for approval; a second runner — another "process": its own
 * tracer provider and, by default, its own store object over the same data — resumes it.
 */
async function runScenario(options: { captureContent?: boolean } = {}, stores: () => [SessionStore, SessionStore] = sharedMemory) {
  const { exporter, provider } = tracing();
  const [store, reopened] = stores();
  const { runner } = planExecuteScenario();
  const first = await runner([openTelemetry({ tracerProvider: provider, ...options })], store)
    .run({ userId: 'u', sessionId: 's1', input: 'do it' })
    .result();
  const second = tracing();
  const resumed = await runner([openTelemetry({ tracerProvider: second.provider, ...options })], reopened)
    .resume({ userId: 'u', sessionId: 's1', values: { [first.interrupts[0]!.id]: { approved: true } } })
    .result();
  const session = await reopened.get({ appName: 'otel-test', userId: 'u', id: 's1' });
  return { first, resumed, spans: [...exporter.getFinishedSpans(), ...second.exporter.getFinishedSpans()], session: session! };
}

function sharedMemory(): [SessionStore, SessionStore] {
  const store = new InMemorySessionStore();
  return [store, store];
}

/** Two `FileSessionStore`s over one directory, as two processes would open it. */
function reopenedFiles(): [SessionStore, SessionStore] {
  const dir = mkdtempSync(join(tmpdir(), 'replan-otel-'));
  dirs.push(dir);
  return [new FileSessionStore({ dir }), new FileSessionStore({ dir })];
}
const dirs: string[] = [];

describe('openTelemetry()', () => {
  afterAll(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  afterEach(() => {
    delete process.env.OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT;
  });

  it('traces a graph plan–execute run as one tree: plan turns, overlapping step siblings, chat and tool spans', async () => {
    const { first, resumed, spans } = await runScenario();
    if (process.env.DUMP_SPANS) console.log(dumpTree(spans));
    expect(first.status).toBe('interrupted');
    expect(resumed.status).toBe('completed');
    expect(resumed.output).toBe('all done');

    // One trace across both processes.
    expect(new Set(spans.map((s) => s.spanContext().traceId)).size).toBe(1);
    const roots = byName(spans, 'invoke_agent plan_execute');
    expect(roots).toHaveLength(2);
    const [firstRoot, resumeRoot] = roots.sort((a, b) => toMs(a.startTime) - toMs(b.startTime));
    expect(parentOf(resumeRoot!)).toBe(firstRoot!.spanContext().spanId);
    expect(resumeRoot!.attributes['replan.resumed']).toBe(true);
    expect(firstRoot!.attributes['replan.run.status']).toBe('interrupted');

    // Every span names the conversation.
    for (const span of spans) expect(span.attributes['gen_ai.conversation.id']).toBe('s1');

    // Planner and replanner turns are `plan` spans with their model call as child.
    const plans = spans.filter((s) => s.attributes['gen_ai.operation.name'] === 'plan');
    expect(plans.map((s) => s.name).sort()).toEqual(['plan planner', 'plan replanner', 'plan replanner']);
    for (const plan of plans) {
      const chats = spans.filter((s) => parentOf(s) === plan.spanContext().spanId && s.name.startsWith('chat '));
      expect(chats).toHaveLength(1);
    }

    // Steps a and b: sibling `invoke_agent executor` spans under the executor, overlapping in time.
    const steps = spans.filter(
      (s) => s.attributes['replan.step.id'] !== undefined && s.attributes['gen_ai.operation.name'] === 'invoke_agent',
    );
    const a = steps.find((s) => s.attributes['replan.step.id'] === 'a')!;
    const bParts = steps.filter((s) => s.attributes['replan.step.id'] === 'b');
    const b = bParts.sort((x, y) => toMs(x.startTime) - toMs(y.startTime))[0]!;
    expect(parentOf(a)).toBe(parentOf(b));
    expect(spans.find((s) => s.spanContext().spanId === parentOf(a))?.name).toBe('invoke_agent executor');
    expect(toMs(a.startTime)).toBeLessThan(toMs(b.endTime));
    expect(toMs(b.startTime)).toBeLessThan(toMs(a.endTime));
    expect(steps.some((s) => s.attributes['replan.step.id'] === 'd')).toBe(true);

    // The failing tool: an error span under step a's agent span.
    const [fetch] = byName(spans, 'execute_tool fetch_page');
    expect(fetch!.status.code).toBe(SpanStatusCode.ERROR);
    expect(fetch!.attributes['error.type']).toBe('tool_error');
    expect(fetch!.attributes['gen_ai.tool.name']).toBe('fetch_page');
    expect(fetch!.attributes['gen_ai.tool.call.id']).toEqual(expect.any(String));
    expect(parentOf(fetch!)).toBe(a.spanContext().spanId);
    // The approved tool ran in the resuming process.
    const mails = byName(spans, 'execute_tool send_mail');
    expect(mails.map((s) => s.attributes['replan.interrupted'] ?? false)).toEqual(expect.arrayContaining([true, false]));

    // Model calls: CLIENT spans with model, provider, finish reasons.
    const chats = spans.filter((s) => s.attributes['gen_ai.operation.name'] === 'chat');
    for (const chat of chats) {
      expect(chat.kind).toBe(SpanKind.CLIENT);
      expect(chat.name).toBe(`chat ${String(chat.attributes['gen_ai.request.model'])}`);
      expect(chat.attributes['gen_ai.provider.name']).toEqual(expect.any(String));
      expect(chat.attributes['gen_ai.response.finish_reasons']).toEqual([expect.any(String)]);
    }
  });

  it('continues the trace when the session is resumed from a re-opened file store', async () => {
    const { resumed, spans, session } = await runScenario({}, reopenedFiles);
    expect(resumed.status).toBe('completed');
    expect(new Set(spans.map((s) => s.spanContext().traceId)).size).toBe(1);
    const input = session.events.find((e) => e.author === 'user' && e.message);
    expect(input?.meta?.observe).toEqual({ traceparent: expect.stringMatching(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/) });
    const roots = byName(spans, 'invoke_agent plan_execute');
    expect(roots.map((r) => r.spanContext().traceId)).toEqual([spans[0]!.spanContext().traceId, spans[0]!.spanContext().traceId]);
  });

  it('puts usage on model-call spans only, equal to the stored events and the run results', async () => {
    const { first, resumed, spans, session } = await runScenario();
    const chats = spans.filter((s) => s.attributes['gen_ai.operation.name'] === 'chat');
    const spanUsage = chats.reduce<Usage>(
      (sum, s) =>
        addUsage(sum, {
          inputTokens: s.attributes['gen_ai.usage.input_tokens'] as number,
          outputTokens: s.attributes['gen_ai.usage.output_tokens'] as number,
          cachedTokens: s.attributes['gen_ai.usage.cache_read.input_tokens'] as number,
          cacheWriteTokens: s.attributes['gen_ai.usage.cache_creation.input_tokens'] as number,
        }),
      emptyUsage(),
    );
    const eventUsage = session.events.reduce<Usage>((sum, e) => addUsage(sum, e.usage), emptyUsage());
    expect(spanUsage).toEqual(eventUsage);
    expect(addUsage(first.usage, resumed.usage)).toEqual(eventUsage);
    expect(resumed.session.usage).toEqual(eventUsage);
    expect(first.modelCalls + resumed.modelCalls).toBe(chats.length);
    for (const span of spans.filter((s) => s.attributes['gen_ai.operation.name'] !== 'chat'))
      expect(Object.keys(span.attributes).filter((k) => k.startsWith('gen_ai.usage.'))).toEqual([]);
  });

  it('records no content unless asked, and content when asked (option or environment)', async () => {
    const contentKeys = (spans: readonly ReadableSpan[]) =>
      new Set(spans.flatMap((s) => Object.keys(s.attributes)).filter((k) => /messages|arguments|result/.test(k)));
    expect(contentKeys((await runScenario()).spans)).toEqual(new Set());
    const asked = await runScenario({ captureContent: true });
    expect(contentKeys(asked.spans)).toEqual(
      new Set(['gen_ai.input.messages', 'gen_ai.output.messages', 'gen_ai.tool.call.arguments', 'gen_ai.tool.call.result']),
    );
    const chat = asked.spans.find((s) => s.name === 'chat planner-model')!;
    expect(JSON.parse(chat.attributes['gen_ai.input.messages'] as string)).toContainEqual({
      role: 'user',
      parts: [expect.objectContaining({ type: 'text' })],
    });
    process.env.OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT = 'true';
    expect(contentKeys((await runScenario()).spans).has('gen_ai.input.messages')).toBe(true);
  });

  it('a chat span names the model that answered in gen_ai.response.model (a fallback model answered here)', async () => {
    const { exporter, provider } = tracing();
    const primary = new ScriptedModel({ id: 'primary-model', responses: [Object.assign(new Error('overloaded'), { status: 529 })] });
    const backup = new ScriptedModel({ id: 'backup-model', responses: ['answered'] });
    const runner = new Runner({
      agent: new ReActAgent({ name: 'solo', model: fallbackModel([primary, backup]) }),
      appName: 'x',
      observers: [openTelemetry({ tracerProvider: provider })],
    });
    expect((await runner.run({ userId: 'u', sessionId: 'fb', input: 'go' }).result()).output).toBe('answered');
    const [chat] = byName(exporter.getFinishedSpans(), 'chat primary-model');
    expect(chat!.attributes['gen_ai.request.model']).toBe('primary-model');
    expect(chat!.attributes['gen_ai.response.model']).toBe('backup-model');
  });

  it('a failing model call marks its chat span, the agents it unwinds and the run as errors', async () => {
    const { exporter, provider } = tracing();
    const model = new ScriptedModel({ id: 'broken-model', responses: [new Error('503 from upstream')] });
    const runner = new Runner({
      agent: new ReActAgent({ name: 'solo', model }),
      appName: 'x',
      observers: [openTelemetry({ tracerProvider: provider })],
    });
    const result = await runner.run({ userId: 'u', sessionId: 'f', input: 'go' }).result();
    expect(result.status).toBe('failed');
    const spans = exporter.getFinishedSpans();
    expect(spans.map((s) => s.name).sort()).toEqual(['chat broken-model', 'invoke_agent solo']);
    for (const span of spans) {
      expect(span.status.code).toBe(SpanStatusCode.ERROR);
      expect(span.attributes['error.type']).toBe('ModelCallError');
    }
    expect(byName(spans, 'chat broken-model')[0]!.attributes['gen_ai.provider.name']).toBe('_OTHER');
  });

  it('nests an agent run as a tool under its tool call: one trace, usage once, the child session as its conversation', async () => {
    const { exporter, provider } = tracing();
    const inner = new ReActAgent({
      name: 'researcher',
      description: 'finds things',
      model: new ScriptedModel({ id: 'inner-model', responses: ['found it'] }),
    });
    const outer = new ReActAgent({
      name: 'boss',
      model: new ScriptedModel({ id: 'outer-model', responses: [callTools({ name: 'research', args: { input: 'find x' } }), 'done'] }),
      tools: [agentTool(inner, { name: 'research' })],
    });
    const store = new InMemorySessionStore();
    const result = await new Runner({
      agent: outer,
      appName: 'x',
      sessionStore: store,
      observers: [openTelemetry({ tracerProvider: provider })],
    })
      .run({ userId: 'u', sessionId: 'outer', input: 'go' })
      .result();
    expect(result.status).toBe('completed');
    const spans = exporter.getFinishedSpans();
    const tool = byName(spans, 'execute_tool research')[0]!;
    const child = byName(spans, 'invoke_agent researcher')[0]!;
    const innerChat = byName(spans, 'chat inner-model')[0]!;
    expect(parentOf(child)).toBe(tool.spanContext().spanId);
    expect(parentOf(innerChat)).toBe(child.spanContext().spanId);
    expect(new Set(spans.map((s) => s.spanContext().traceId)).size).toBe(1);
    expect(child.attributes['replan.parent.tool_call.id']).toBe(tool.attributes['gen_ai.tool.call.id']);
    expect(child.attributes['gen_ai.conversation.id']).not.toBe('outer');
    expect(innerChat.attributes['gen_ai.conversation.id']).toBe(child.attributes['gen_ai.conversation.id']);
    // The child's call is on its own chat span only; the run's totals hold it once.
    const chats = spans.filter((s) => s.attributes['gen_ai.operation.name'] === 'chat');
    expect(chats).toHaveLength(3);
    expect(chats.reduce((n, s) => n + (s.attributes['gen_ai.usage.input_tokens'] as number), 0)).toBe(result.usage.inputTokens);
    expect(toMs(child.startTime)).toBeGreaterThanOrEqual(toMs(tool.startTime));
  });

  it('a throwing observer next to it breaks neither the run nor the trace', async () => {
    const { exporter, provider } = tracing();
    const { runner } = planExecuteScenario();
    const thrower = {
      onToolCallStart: () => {
        throw new Error('bad observer');
      },
    };
    const errors: unknown[] = [];
    const result = await runner([thrower, openTelemetry({ tracerProvider: provider })], undefined, (e) => errors.push(e))
      .run({ userId: 'u', input: 'go' })
      .result();
    expect(result.status).toBe('interrupted');
    expect(errors).toHaveLength(1);
    const spans = exporter.getFinishedSpans();
    expect(byName(spans, 'execute_tool fetch_page')).toHaveLength(1);
    expect(byName(spans, 'invoke_agent plan_execute')[0]?.attributes['replan.run.status']).toBe('interrupted');
  });
});

/** Prints a span tree (debugging aid for this file: `DUMP_SPANS=1`). */
export function dumpTree(spans: readonly ReadableSpan[]): string {
  const children = (id: string | undefined) => spans.filter((s) => parentOf(s) === id);
  const lines: string[] = [];
  const walk = (span: ReadableSpan, depth: number) => {
    lines.push(
      `${'  '.repeat(depth)}${span.name}${span.attributes['replan.step.id'] ? ` [${String(span.attributes['replan.step.id'])}]` : ''}`,
    );
    for (const c of children(span.spanContext().spanId)) walk(c, depth + 1);
  };
  for (const root of spans.filter((s) => !spans.some((p) => p.spanContext().spanId === parentOf(s)))) walk(root, 0);
  return lines.join('\n');
}
