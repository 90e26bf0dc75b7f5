/**
 * ReAct overhead per iteration with no observer, and with `@replan/otel`'s observer over a real
 * OpenTelemetry SDK whose exporter drops every span (the SDK's own cost included, not a backend's).
 * Run: pnpm bench observer-overhead
 */
import { BasicTracerProvider, BatchSpanProcessor, type SpanExporter } from '@opentelemetry/sdk-trace-base';
import { ReActAgent, Runner, type RunObserver } from '@replan/core';
import { openTelemetry } from '@replan/otel';
import { fmt, medianMs, table } from './measure.js';
import { modelFor, noop } from './react-overhead.js';

/** Accepts spans and does nothing with them. */
const dropSpans: SpanExporter = {
  export: (_spans, done) => done({ code: 0 }),
  shutdown: async () => undefined,
};

async function run(iterations: number, observers: readonly RunObserver[]): Promise<void> {
  const agent = new ReActAgent({ name: 'bench', model: modelFor(iterations), tools: [noop], maxIterations: iterations + 1 });
  const result = await new Runner({ agent, appName: 'bench', observers }).run({ userId: 'u', input: 'go' }).result();
  if (result.status !== 'completed') throw new Error(`bench run ended ${result.status}: ${result.error?.message}`);
}

export async function observerOverhead(): Promise<string> {
  const provider = new BasicTracerProvider({ spanProcessors: [new BatchSpanProcessor(dropSpans)] });
  const otel = [openTelemetry({ tracerProvider: provider })];
  const n = 50;
  for (let round = 0; round < 100; round++) {
    await run(n, []);
    await run(n, otel);
  }
  // No SDK registered: the API's no-op tracer. What replan's observer machinery itself costs.
  const apiOnly = [openTelemetry()];
  for (let round = 0; round < 100; round++) await run(n, apiOnly);
  const off = (await medianMs(() => run(n, []), 201, 0)) / n;
  const noop = (await medianMs(() => run(n, apiOnly), 201, 0)) / n;
  const on = (await medianMs(() => run(n, otel), 201, 0)) / n;
  return [
    `### ReAct overhead per iteration with observers (µs, ${n} iterations a run, median of 201 runs after warm-up)`,
    '',
    table(
      ['observers', 'per iteration', 'vs. none'],
      [
        ['none', fmt(off * 1000), '1.0'],
        ['openTelemetry(), no SDK (API no-op tracer)', fmt(noop * 1000), fmt(noop / off)],
        ['openTelemetry() + SDK (BatchSpanProcessor), spans dropped', fmt(on * 1000), fmt(on / off)],
      ],
    ),
  ].join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(await observerOverhead());
