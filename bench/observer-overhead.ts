/**
 * ReAct overhead per iteration with no observer, with an observer whose handlers are empty
 * (replan's own lifecycle reporting), with `@replan/otel` over the API's no-op tracer, and with
 * `@replan/otel` over a real OpenTelemetry SDK whose exporter drops every span (the SDK's own cost
 * included, not a backend's). The four are measured in alternating rounds, so machine load shifts
 * all of them alike; each figure is the median of the rounds' medians. The "over none" column is the
 * median of the rounds' differences to no observer: for the empty-handler observer, what replan's own
 * reporting costs per iteration (target: at most 2 µs; the SDK's share is the OpenTelemetry SDK's).
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

/** Hears every lifecycle event and does nothing: what the reporting itself costs. */
const emptyObserver: RunObserver = {
  onRunStart() {},
  onRunEnd() {},
  onAgentStart() {},
  onAgentEnd() {},
  onModelCallStart() {},
  onModelCallEnd() {},
  onToolCallStart() {},
  onToolCallEnd() {},
};

async function run(iterations: number, observers: readonly RunObserver[]): Promise<void> {
  const agent = new ReActAgent({ name: 'bench', model: modelFor(iterations), tools: [noop], maxIterations: iterations + 1 });
  const result = await new Runner({ agent, appName: 'bench', observers }).run({ userId: 'u', input: 'go' }).result();
  if (result.status !== 'completed') throw new Error(`bench run ended ${result.status}: ${result.error?.message}`);
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;

/** The most replan's own lifecycle reporting may add per ReAct iteration (µs). */
export const REPORTING_BUDGET_US = 2;

export async function observerOverhead(): Promise<string> {
  const provider = new BasicTracerProvider({ spanProcessors: [new BatchSpanProcessor(dropSpans)] });
  const modes: [string, RunObserver[]][] = [
    ['none', []],
    ['an observer with empty handlers (replan’s reporting alone)', [emptyObserver]],
    ['openTelemetry(), no SDK (API no-op tracer)', [openTelemetry()]],
    ['openTelemetry() + SDK (BatchSpanProcessor), spans dropped', [openTelemetry({ tracerProvider: provider })]],
  ];
  const n = 50;
  const rounds = 9;
  for (let warm = 0; warm < 100; warm++) for (const [, observers] of modes) await run(n, observers);
  const perIteration = modes.map((): number[] => []);
  for (let round = 0; round < rounds; round++)
    for (const [i, [, observers]] of modes.entries()) perIteration[i]?.push(((await medianMs(() => run(n, observers), 101, 0)) / n) * 1000);
  const off = median(perIteration[0] as number[]);
  const none = perIteration[0] as number[];
  const spread = (values: number[], digits: number) =>
    `${fmt(median(values), digits)} (${fmt(Math.min(...values), digits)}–${fmt(Math.max(...values), digits)})`;
  const rows = modes.map(([name], i) => {
    const values = perIteration[i] as number[];
    const ratios = values.map((v, r) => v / (none[r] as number));
    const over = values.map((v, r) => v - (none[r] as number));
    return [name, fmt(median(values)), spread(over, 2), spread(ratios, 2)];
  });
  const reporting = median((perIteration[1] as number[]).map((v, r) => v - (none[r] as number)));
  const verdict = reporting <= REPORTING_BUDGET_US ? 'within' : 'OVER';
  return [
    `### ReAct overhead per iteration with observers (µs, ${n} iterations a run; ${rounds} alternating rounds, each the median of 101 runs)`,
    '',
    table(['observers', 'per iteration', 'over none (µs): median of rounds (range)', 'vs. none: median of rounds (range)'], rows),
    '',
    `(none = ${fmt(off)} µs per iteration)`,
    '',
    `replan's own reporting (empty handlers − none): **${fmt(reporting, 2)} µs per iteration**, ${verdict} the ${REPORTING_BUDGET_US} µs budget.`,
  ].join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(await observerOverhead());
