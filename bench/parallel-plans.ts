/**
 * Wall time of a 6-step plan in graph mode vs linear mode vs the critical-path lower bound, on
 * three shapes (all independent, a chain, a diamond). ScriptedModel latency 100 ms per call, tool
 * 50 ms; every step is one tool call and one answer (250 ms); planner and replanner 100 ms each.
 * Run: pnpm build && npx tsx bench/parallel-plans.ts
 */
import { z } from 'zod';
import { Runner, tool, type ModelRequest } from '@replan/core';
import { ScriptedModel, callTools } from '@replan/core/testing';
import { createExecutor, createPlanExecuteAgent, createPlanner, createReplanner, type GraphStep } from '@replan/planexecute';
import { fmt, table } from './measure.js';

const MODEL_MS = 100;
const TOOL_MS = 50;
const STEP_MS = 2 * MODEL_MS + TOOL_MS;

const work = tool({
  name: 'work',
  description: 'does the work of a step',
  parameters: z.object({ step: z.string() }),
  execute: ({ step }) => new Promise((resolve) => setTimeout(() => resolve(`worked on ${step}`), TOOL_MS)),
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
  const of = (id: string): number => memo.get(id) ?? (memo.set(id, 1 + Math.max(0, ...(byId.get(id)?.dependsOn ?? []).map(of))), memo.get(id) as number);
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
    planner: createPlanner({ mode: 'graph', model: new ScriptedModel({ latencyMs: MODEL_MS, responses: [callTools({ name: 'plan', args: { steps: shape.steps } })] }) }),
    executor: createExecutor({ model: stepModel(), tools: [work] }),
    replanner: createReplanner({ mode: 'graph', model: new ScriptedModel({ latencyMs: MODEL_MS, responses: [callTools({ name: 'respond', args: { response: 'done' } })] }) }),
  });
  return timed(agent);
}

async function runLinear(shape: Shape): Promise<number> {
  const tasks = shape.steps.map((s) => s.task); // a topological order: the shapes list dependencies first
  const replans = tasks.map((_, i) =>
    i + 1 < tasks.length ? callTools({ name: 'plan', args: { steps: tasks.slice(i + 1) } }) : callTools({ name: 'respond', args: { response: 'done' } }),
  );
  const agent = createPlanExecuteAgent({
    planner: createPlanner({ model: new ScriptedModel({ latencyMs: MODEL_MS, responses: [callTools({ name: 'plan', args: { steps: tasks } })] }) }),
    executor: createExecutor({ model: stepModel(), tools: [work] }),
    replanner: createReplanner({ model: new ScriptedModel({ latencyMs: MODEL_MS, responses: replans }) }),
  });
  return timed(agent);
}

async function timed(agent: ReturnType<typeof createPlanExecuteAgent>): Promise<number> {
  const t0 = performance.now();
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
    rows.push([shape.name, levels, fmt(bound, 0), fmt(g, 0), `${fmt(((g - bound) / bound) * 100)} % (${fmt((g - bound) / levels)} ms/level)`, fmt(l, 0), `${fmt(l / g, 2)}×`]);
  }
  return [
    `### Parallel plans: wall time of a 6-step plan (model ${MODEL_MS} ms, tool ${TOOL_MS} ms, stepConcurrency 6; median of ${repeats})`,
    '',
    table(['shape', 'levels', 'critical-path bound (ms)', 'graph mode (ms)', 'graph over bound', 'linear mode (ms)', 'linear / graph'], rows),
  ].join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(await parallelPlans());
