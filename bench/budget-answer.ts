/**
 * A budget at 50 % of what a task needs, with `limits.onExhausted: 'stop'` and `'answer'`: 20 runs
 * of a scripted plan–execute task per mode (linear, graph), each with its own plan length and
 * result sizes (seeded). The models report usage measured from what they are sent and write
 * (`ScriptedModel({ usage: 'measured' })`: about 4 characters a token, the output capped at
 * `settings.maxTokens` as a provider caps it), so the budget sees what a real provider would bill.
 * Counts the runs that end with an answer, how the others end, the tokens spent, and the overshoot
 * past `maxTokens`; then again with models that count 25 % more input tokens than the budget's
 * estimate (a provider's tokenizer that differs from it), to measure what that error carries.
 * Run: pnpm bench budget-answer
 */
import { BudgetExceededError, Runner, tool, type ChatModel, type ModelResponse, type RunOptions, type RunResult } from '@replan/core';
import { callTools, ScriptedModel } from '@replan/core/testing';
import { createExecutor, createPlanExecuteAgent, createPlanner, createReplanner, type PlanModeOption } from '@replan/planexecute';
import { z } from 'zod';
import { fmt, table } from './measure.js';

const RUNS = 20;
type RunLimits = NonNullable<RunOptions['limits']>;

/** A small deterministic PRNG (mulberry32), so every run of the bench is the same 20 tasks. */
function prng(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Task {
  readonly steps: readonly string[];
  readonly results: readonly string[];
}

function taskOf(seed: number): Task {
  const rand = prng(seed);
  const n = 4 + Math.floor(rand() * 5); // 4–8 steps
  const steps = Array.from({ length: n }, (_, i) => `step ${i + 1}: look up part ${i + 1} of the report`);
  const results = steps.map((_, i) => `part ${i + 1}: ${'finding '.repeat(20 + Math.floor(rand() * 80))}`.trim());
  return { steps, results };
}

const lookup = tool({
  name: 'lookup',
  description: 'Looks up one part of the report.',
  parameters: z.object({ part: z.number() }),
  execute: ({ part }) => `source text of part ${part}: ${'data '.repeat(40)}`,
});

/** Linear plan, graph chain, or graph of independent steps run in parallel. */
type Shape = 'linear' | 'graph' | 'graph, parallel';

/**
 * `model` reporting `factor` times the input tokens it measured: a provider whose tokenizer counts
 * more than the budget's estimate (about 4 characters a token). The output stays as capped.
 */
function miscounting(model: ScriptedModel, factor: number): ChatModel {
  if (factor === 1) return model;
  const scaled = (r: ModelResponse): ModelResponse =>
    r.usage ? { ...r, usage: { ...r.usage, inputTokens: Math.ceil(r.usage.inputTokens * factor) } } : r;
  return {
    id: model.id,
    generate: async (request, options) => scaled(await model.generate(request, options)),
    async *stream(request, options) {
      yield { type: 'finish', response: scaled(await model.generate(request, options)) };
    },
  };
}

/** One run of the task: each step calls `lookup`, then reports; the replanner keeps the plan, then answers. */
async function runTask(task: Task, shape: Shape, limits?: RunLimits, factor = 1): Promise<RunResult> {
  const mode: PlanModeOption = shape === 'linear' ? 'linear' : 'graph';
  // A chain, or every step independent (run three at a time, so their calls are in flight together).
  const graph = task.steps.map((s, i) => ({ id: `s${i + 1}`, task: s, dependsOn: i && shape === 'graph' ? [`s${i}`] : [] }));
  const planner = new ScriptedModel({
    responses: [callTools({ name: 'plan', args: { steps: mode === 'graph' ? graph : task.steps } })],
    usage: 'measured',
  });
  const calls = new Map<string, number>();
  const executor = new ScriptedModel({
    usage: 'measured',
    latencyMs: 2, // so the parallel steps' calls overlap
    respond: (request) => {
      const last = request.messages.findLast((m) => m.role === 'user');
      const text = last?.content.map((b) => (b.type === 'text' ? b.text : '')).join('') ?? '';
      const i = task.steps.findIndex((s) => text.includes(s));
      const n = calls.get(String(i)) ?? 0;
      calls.set(String(i), n + 1);
      return n === 0 ? callTools({ name: 'lookup', args: { part: i + 1 } }) : (task.results[i] ?? 'done');
    },
  });
  let done = 0;
  const replanner = new ScriptedModel({
    usage: 'measured',
    respond: (request) => {
      const canPlan = request.tools?.some((t) => t.name === 'plan');
      const answer = callTools({ name: 'respond', args: { response: `The report, from ${'the parts found '.repeat(10)}` } });
      if (!canPlan || mode === 'graph') return answer;
      done++;
      return done < task.steps.length ? callTools({ name: 'plan', args: { steps: task.steps.slice(done) } }) : answer;
    },
  });
  const agent = createPlanExecuteAgent({
    mode,
    planner: createPlanner({ model: miscounting(planner, factor) }),
    executor: createExecutor({ model: miscounting(executor, factor), tools: [lookup] }),
    replanner: createReplanner({ model: miscounting(replanner, factor) }),
    maxIterations: task.steps.length + 2,
    ...(mode === 'graph' ? { stepConcurrency: 3 } : {}),
  });
  return new Runner({ agent, appName: 'bench' }).run({ userId: 'u', input: 'Write the report.', ...(limits ? { limits } : {}) }).result();
}

const tokensOf = (r: RunResult) => r.usage.inputTokens + r.usage.outputTokens;

/** How a run ended: with an answer, or `budget_exceeded` before a call whose input did not fit, or at a limit. */
function endOf(r: RunResult): 'answer' | 'refused' | 'limit' | 'other' {
  if (r.status === 'completed' && r.output !== undefined) return 'answer';
  if (r.status !== 'budget_exceeded') return 'other';
  return r.error instanceof BudgetExceededError && r.error.forecast !== undefined ? 'refused' : 'limit';
}

/** The runs' endings, e.g. "20 budget_exceeded (14 before a call that did not fit, 6 at the limit)". */
function endings(ends: readonly ReturnType<typeof endOf>[]): string {
  const count = (e: string) => ends.filter((x) => x === e).length;
  const parts: string[] = [];
  if (count('answer')) parts.push(`${count('answer')} completed`);
  const stopped = count('refused') + count('limit');
  if (stopped)
    parts.push(`${stopped} budget_exceeded (${count('refused')} before a call that did not fit, ${count('limit')} with the limit used up)`);
  if (count('other')) parts.push(`${count('other')} other`);
  return parts.join(', ');
}

/** Markdown: per tokenizer, mode and `onExhausted`, how runs end, tokens spent, overshoot past the limit. */
export async function budgetAnswer(): Promise<string> {
  const rows: (string | number)[][] = [];
  for (const factor of [1, 1.25]) {
    for (const mode of ['linear', 'graph', 'graph, parallel'] as const) {
      const tasks = Array.from({ length: RUNS }, (_, i) => taskOf(1000 + i));
      const needs = await Promise.all(tasks.map(async (t) => tokensOf(await runTask(t, mode, undefined, factor))));
      for (const onExhausted of ['stop', 'answer'] as const) {
        let partial = 0;
        let spent = 0;
        let overshoot = 0;
        let overRuns = 0;
        const ends: ReturnType<typeof endOf>[] = [];
        for (const [i, task] of tasks.entries()) {
          const limit = Math.floor((needs[i] as number) / 2);
          const r = await runTask(task, mode, { maxTokens: limit, onExhausted }, factor);
          ends.push(endOf(r));
          if (r.partial) partial++;
          spent += tokensOf(r) / limit;
          const over = Math.max(0, tokensOf(r) - limit);
          if (over > 0) overRuns++;
          overshoot = Math.max(overshoot, over);
        }
        rows.push([
          factor === 1 ? 'as estimated' : `+${fmt((factor - 1) * 100, 0)} %`,
          mode,
          `'${onExhausted}'`,
          endings(ends),
          partial,
          `${fmt((100 * spent) / RUNS, 0)} %`,
          `${overRuns} / ${RUNS}`,
          overshoot,
        ]);
      }
    }
  }
  return table(
    [
      'input tokens counted',
      'mode',
      'onExhausted',
      'how the runs end',
      'partial answers',
      'tokens spent (mean, % of the limit)',
      'runs past the limit',
      'largest overshoot (tokens)',
    ],
    rows,
  );
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(await budgetAnswer());
