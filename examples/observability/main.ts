/**
 * Traces of a plan–execute run with @replan/otel, offline: a graph plan whose two steps run in
 * parallel, one tool needing approval, the approval given to a second runner (as another process
 * would), and the spans — one trace — printed as a tree from an in-memory exporter. Then the cost
 * of each step from `RunResult.breakdown`.
 *
 * In an application, register your own SDK (e.g. NodeSDK with an OTLP exporter) and pass
 * `openTelemetry()` with no options: see docs/observability.md.
 */
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { InMemorySessionStore, Runner, tool } from '@replan/core';
import { createExecutor, createPlanExecuteAgent, createPlanner, createReplanner } from '@replan/planexecute';
import { scriptPlanExecute } from '@replan/planexecute/testing';
import { openTelemetry } from '@replan/otel';
import { z } from 'zod';

const weather = tool({
  name: 'weather',
  description: 'Weather in a city',
  parameters: z.object({ city: z.string() }),
  execute: ({ city }) => `${city}: 18°C, dry`,
});
const book = tool({
  name: 'book_table',
  description: 'Books a table (asks a human first)',
  parameters: z.object({ place: z.string() }),
  needsApproval: true,
  execute: ({ place }) => `booked at ${place}`,
});

// Every role is scripted by who calls (`scriptPlanExecute`); the one model is `gpt-demo`, priced below.
const { model } = scriptPlanExecute(
  {
    plan: {
      steps: [
        { id: 'weather', task: 'Check the weather in Lyon', dependsOn: [] },
        { id: 'table', task: 'Book a table', dependsOn: [] },
      ],
    },
    steps: {
      weather: { toolCalls: [{ name: 'weather', args: { city: 'Lyon' } }], text: 'Dry and 18°C.' },
      table: { toolCalls: [{ name: 'book_table', args: { place: 'Le Bouchon' } }], text: 'Table booked.' },
    },
    answer: 'Dry evening, table booked.',
  },
  { id: 'gpt-demo', latencyMs: 10 },
);
const agent = createPlanExecuteAgent({
  mode: 'graph',
  planner: createPlanner({ model }),
  executor: createExecutor({ model, tools: [weather, book] }),
  replanner: createReplanner({ model }),
});

const exporter = new InMemorySpanExporter();
const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
const store = new InMemorySessionStore();
const prices = { 'gpt-demo': { inputPerMillion: 2.5, outputPerMillion: 10, cachedInputPerMillion: 1.25 } };
const runner = () =>
  new Runner({ agent, appName: 'otel-example', sessionStore: store, prices, observers: [openTelemetry({ tracerProvider })] });

const first = await runner().run({ userId: 'u', sessionId: 'evening', input: 'Plan my evening in Lyon' }).result();
console.log(`first run: ${first.status} (waiting for: ${first.interrupts.map((i) => i.reason).join(', ')})`);
const second = await runner()
  .resume({ userId: 'u', sessionId: 'evening', values: { [first.interrupts[0]!.id]: true } })
  .result();
console.log(`resumed in another runner: ${second.status} — ${second.output}\n`);

const spans = exporter.getFinishedSpans();
console.log(`spans: ${spans.length}, traces: ${new Set(spans.map((s) => s.spanContext().traceId)).size}`);
const children = (id: string | undefined) =>
  spans
    .filter((s) => s.parentSpanContext?.spanId === id)
    .sort((a, b) => a.startTime[0] - b.startTime[0] || a.startTime[1] - b.startTime[1]);
const describe = (s: ReadableSpan) => {
  const a = s.attributes;
  const extra = [
    a['replan.step.id'] !== undefined ? `step=${String(a['replan.step.id'])}` : '',
    a['gen_ai.usage.input_tokens'] !== undefined
      ? `tokens=${String(a['gen_ai.usage.input_tokens'])}/${String(a['gen_ai.usage.output_tokens'])}`
      : '',
    s.status.code === 2 ? 'ERROR' : '',
    a['replan.interrupted'] ? 'interrupted' : '',
  ].filter(Boolean);
  return `${s.name}${extra.length ? `  [${extra.join(' ')}]` : ''}`;
};
const print = (s: ReadableSpan, depth: number): void => {
  console.log(`${'  '.repeat(depth)}${describe(s)}`);
  for (const c of children(s.spanContext().spanId)) print(c, depth + 1);
};
for (const root of spans.filter((s) => !spans.some((p) => p.spanContext().spanId === s.parentSpanContext?.spanId))) print(root, 0);

console.log('\ncost per step (this resume):');
for (const [step, b] of Object.entries(second.breakdown.byLabel))
  console.log(`  ${step}: ${b.modelCalls} calls, ${b.usage.inputTokens} in / ${b.usage.outputTokens} out, $${b.cost.toFixed(6)}`);
console.log(
  `session totals (both runs): ${second.session.modelCalls} model calls, ${second.session.usage.inputTokens} in / ${second.session.usage.outputTokens} out`,
);
