/**
 * Wall time of a 6-step plan in graph mode vs linear mode vs the critical-path lower bound, on
 * three shapes (all independent, a chain, a diamond). ScriptedModel latency 100 ms per call, tool
 * 50 ms; every step is one tool call and one answer (250 ms); planner and replanner 100 ms each.
 * Then the streaming planner (`streamingPlan: true`): the same plans streamed over 600 ms, steps
 * starting as their objects complete, against waiting for the whole plan.
 * Run: pnpm build && npx tsx bench/parallel-plans.ts
 */
import { z } from 'zod';
import {
  Runner,
  tool,
  type ChatModel,
  type ModelCallOptions,
  type ModelRequest,
  type ModelResponse,
  type ModelStreamPart,
} from '@replan/core';
import { ScriptedModel, callTools } from '@replan/core/testing';
import { createExecutor, createPlanExecuteAgent, createPlanner, createReplanner, type GraphStep } from '@replan/planexecute';
import { fmt, table } from './measure.js';

const MODEL_MS = 100;
const TOOL_MS = 50;
const STEP_MS = 2 * MODEL_MS + TOOL_MS;

/** When each `work` call started (ms since `clock.t0`), for the streaming-planner row. */
const clock = { t0: 0, toolStarts: [] as number[], planEnd: 0 };
const work = tool({
  name: 'work',
  description: 'does the work of a step',
  parameters: z.object({ step: z.string() }),
  execute: ({ step }) => {
    clock.toolStarts.push(performance.now() - clock.t0);
    return new Promise((resolve) => setTimeout(() => resolve(`worked on ${step}`), TOOL_MS));
  },
});

type Shape = { readonly name: string; readonly steps: readonly GraphStep[] };
const step = (id: string, dependsOn: string[] = []): GraphStep => ({ id, task: `do step ${id}`, dependsOn });
export const shapes: readonly Shape[] = [
  { name: 'independent', steps: ['1', '2', '3', '4', '5', '6'].map((id) => step(id)) },
  { name: 'chain', steps: ['1', '2', '3', '4', '5', '6'].map((id, i) => step(id, i ? [String(i)] : [])) },
  { name: 'diamond', steps: [step('1'), ...['2', '3', '4', '5'].map((id) => step(id, ['1'])), step('6', ['2', '3', '4', '5'])] },
];

/** The longest dependency path, in steps. */
function depth(steps: readonly GraphStep[]): number {
  const memo = new Map<string, number>();
  const byId = new Map(steps.map((s) => [s.id, s]));
  const of = (id: string): number => {
    const known = memo.get(id);
    if (known !== undefined) return known;
    const level = 1 + Math.max(0, ...(byId.get(id)?.dependsOn ?? []).map(of));
    memo.set(id, level);
    return level;
  };
  return Math.max(...steps.map((s) => of(s.id)));
}

/** A step model: a tool call first, then the answer once the tool result is in. */
const stepModel = () =>
  new ScriptedModel({
    latencyMs: MODEL_MS,
    respond: (req: ModelRequest) => (req.messages.at(-1)?.role === 'tool' ? 'step done' : callTools({ name: 'work', args: { step: 'x' } })),
  });

async function runGraph(shape: Shape): Promise<number> {
  const agent = createPlanExecuteAgent({
    mode: 'graph',
    stepConcurrency: 6,
    planner: createPlanner({
      model: new ScriptedModel({ latencyMs: MODEL_MS, responses: [callTools({ name: 'plan', args: { steps: shape.steps } })] }),
    }),
    executor: createExecutor({ model: stepModel(), tools: [work] }),
    replanner: createReplanner({
      model: new ScriptedModel({ latencyMs: MODEL_MS, responses: [callTools({ name: 'respond', args: { response: 'done' } })] }),
    }),
  });
  return timed(agent);
}

async function runLinear(shape: Shape): Promise<number> {
  const tasks = shape.steps.map((s) => s.task); // a topological order: the shapes list dependencies first
  const replans = tasks.map((_, i) =>
    i + 1 < tasks.length
      ? callTools({ name: 'plan', args: { steps: tasks.slice(i + 1) } })
      : callTools({ name: 'respond', args: { response: 'done' } }),
  );
  const agent = createPlanExecuteAgent({
    planner: createPlanner({
      model: new ScriptedModel({ latencyMs: MODEL_MS, responses: [callTools({ name: 'plan', args: { steps: tasks } })] }),
    }),
    executor: createExecutor({ model: stepModel(), tools: [work] }),
    replanner: createReplanner({ model: new ScriptedModel({ latencyMs: MODEL_MS, responses: replans }) }),
  });
  return timed(agent);
}

async function timed(agent: ReturnType<typeof createPlanExecuteAgent>): Promise<number> {
  const t0 = performance.now();
  Object.assign(clock, { t0, toolStarts: [], planEnd: 0 });
  const result = await new Runner({ agent, appName: 'bench' }).run({ userId: 'u', input: 'go' }).result();
  if (result.status !== 'completed') throw new Error(`bench run ended ${result.status}: ${result.error?.message}`);
  return performance.now() - t0;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;

/** Markdown: wall time per shape and mode, against the critical-path bound. */
export async function parallelPlans(repeats = 3): Promise<string> {
  const rows: (string | number)[][] = [];
  for (const shape of shapes) {
    const levels = depth(shape.steps);
    const bound = MODEL_MS + levels * STEP_MS + MODEL_MS; // planner + the longest path + one replanner call
    const graph: number[] = [];
    const linear: number[] = [];
    for (let i = 0; i < repeats; i++) {
      graph.push(await runGraph(shape));
      linear.push(await runLinear(shape));
    }
    const g = median(graph);
    const l = median(linear);
    rows.push([
      shape.name,
      levels,
      fmt(bound, 0),
      fmt(g, 0),
      `${fmt(((g - bound) / bound) * 100)} % (${fmt((g - bound) / levels)} ms/level)`,
      fmt(l, 0),
      `${fmt(l / g, 2)}×`,
    ]);
  }
  return [
    `### Parallel plans: wall time of a 6-step plan (model ${MODEL_MS} ms, tool ${TOOL_MS} ms, stepConcurrency 6; median of ${repeats})`,
    '',
    table(
      ['shape', 'levels', 'critical-path bound (ms)', 'graph mode (ms)', 'graph over bound', 'linear mode (ms)', 'linear / graph'],
      rows,
    ),
    '',
    await streamingPlanner(repeats),
  ].join('\n');
}

const PLAN_STREAM_MS = 600;

/**
 * A planner whose `plan` arguments stream in 16-character deltas spread over `PLAN_STREAM_MS`,
 * whether it is called with `stream` (the streaming planner) or `generate` (which waits for the
 * whole stream), so both modes pay the same planning time.
 */
class StreamedPlanner implements ChatModel {
  readonly id = 'streamed-planner';
  private readonly inner: ScriptedModel;
  constructor(steps: readonly GraphStep[]) {
    const chunks = Math.ceil(JSON.stringify({ steps }).length / 16);
    this.inner = new ScriptedModel({
      responses: [callTools({ name: 'plan', args: { steps } })],
      argsChunkSize: 16,
      chunkDelayMs: PLAN_STREAM_MS / chunks,
    });
  }
  async *stream(request: ModelRequest, opts?: ModelCallOptions): AsyncIterable<ModelStreamPart> {
    for await (const part of this.inner.stream(request, opts)) {
      if (part.type === 'finish') clock.planEnd = performance.now() - clock.t0;
      yield part;
    }
  }
  async generate(request: ModelRequest, opts?: ModelCallOptions): Promise<ModelResponse> {
    for await (const part of this.stream(request, opts)) if (part.type === 'finish') return part.response;
    throw new Error('StreamedPlanner: the stream ended without a finish part');
  }
}

async function runStreamed(shape: Shape, streamingPlan: boolean): Promise<{ wall: number; firstTool: number; planEnd: number }> {
  const agent = createPlanExecuteAgent({
    mode: 'graph',
    stepConcurrency: 6,
    streamingPlan,
    planner: createPlanner({ model: new StreamedPlanner(shape.steps) }),
    executor: createExecutor({ model: stepModel(), tools: [work] }),
    replanner: createReplanner({
      model: new ScriptedModel({ latencyMs: MODEL_MS, responses: [callTools({ name: 'respond', args: { response: 'done' } })] }),
    }),
  });
  const wall = await timed(agent);
  return { wall, firstTool: Math.min(...clock.toolStarts), planEnd: clock.planEnd };
}

/** Markdown: the streaming planner (`streamingPlan: true`) against waiting for the whole plan, the plan streamed over 600 ms. */
export async function streamingPlanner(repeats = 3): Promise<string> {
  const rows: (string | number)[][] = [];
  for (const shape of shapes) {
    const streamed: { wall: number; firstTool: number; planEnd: number }[] = [];
    const whole: number[] = [];
    for (let i = 0; i < repeats; i++) {
      streamed.push(await runStreamed(shape, true));
      whole.push((await runStreamed(shape, false)).wall);
    }
    const s = streamed.sort((a, b) => a.wall - b.wall)[Math.floor(repeats / 2)] as (typeof streamed)[number];
    const w = median(whole);
    rows.push([
      shape.name,
      fmt(s.firstTool, 0),
      fmt(s.planEnd, 0),
      fmt(s.wall, 0),
      fmt(w, 0),
      `${fmt(w - s.wall, 0)} ms (${fmt(((w - s.wall) / w) * 100)} %)`,
    ]);
  }
  return [
    `### Streaming planner: the same plans streamed over ${PLAN_STREAM_MS} ms (16-character deltas; model ${MODEL_MS} ms, tool ${TOOL_MS} ms; median of ${repeats})`,
    '',
    table(
      ['shape', "first step's tool starts (ms)", 'plan stream ends (ms)', 'streamingPlan (ms)', 'whole plan first (ms)', 'saved'],
      rows,
    ),
  ].join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(await parallelPlans());
