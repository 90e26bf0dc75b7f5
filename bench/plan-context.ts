/**
 * Prompt tokens per run (characters / 4, every model request of the run) against the step count,
 * per `contextPolicy` and mode, on a chain where each step needs the one before; and whether a
 * "needle" fact from step 1, needed at step 6, reaches step 6 under every policy.
 * Run: pnpm build && npx tsx bench/plan-context.ts
 */
import { messageText, Runner, type ModelRequest } from '@replan/core';
import { ScriptedModel, callTools } from '@replan/core/testing';
import {
  createExecutor,
  createPlanExecuteAgent,
  createPlanner,
  createReplanner,
  type ContextPolicy,
  type PlanModeOption,
} from '@replan/planexecute';
// The library's own estimate, so the table counts prompt tokens the way context policies do.
import { estimateTokens } from '../packages/planexecute/src/base/context-policy.js';
import { table } from './measure.js';

const RESULT = `${'lorem ipsum '.repeat(33)}`.trim(); // ~400 characters, ~100 tokens per step result
const policies: [string, ContextPolicy][] = [
  ['full', 'full'],
  ['referenced', 'referenced'],
  ['summarized (1000 tokens)', 'summarized'],
];

const requestTokens = (requests: readonly ModelRequest[]) =>
  requests.reduce((sum, r) => sum + r.messages.reduce((n, m) => n + estimateTokens(messageText(m)), 0), 0);

/** Steps of a chain; step `needleAt` also depends on step 1 and names `$1`. */
function chain(n: number, needleAt?: number) {
  return Array.from({ length: n }, (_, i) => {
    const id = String(i + 1);
    const deps = i ? [String(i)] : [];
    if (needleAt === i + 1) return { id, task: `report the code found in step 1 ($1)`, dependsOn: [...deps, '1'] };
    return { id, task: `step ${id}: continue the work`, dependsOn: deps };
  });
}

/** Runs one plan; returns the run's prompt tokens and the executor's requests. */
async function run(mode: PlanModeOption, n: number, policy: ContextPolicy, firstResult = RESULT, needleAt?: number) {
  const steps = chain(n, needleAt);
  const tasks = steps.map((s) => (mode === 'graph' ? s.task : s.task.replace('$1', '$1 of the completed steps')));
  let done = 0;
  const executor = new ScriptedModel({ respond: () => (done++ === 0 ? firstResult : RESULT) });
  const planner = new ScriptedModel({ responses: [callTools({ name: 'plan', args: { steps: mode === 'graph' ? steps : tasks } })] });
  let replans = 0;
  const replanner = new ScriptedModel({
    respond: () => {
      replans++;
      const left = mode === 'graph' ? 0 : n - replans;
      return left > 0
        ? callTools({ name: 'plan', args: { steps: tasks.slice(n - left) } })
        : callTools({ name: 'respond', args: { response: 'done' } });
    },
  });
  const agent = createPlanExecuteAgent({
    mode,
    planner: createPlanner({ model: planner }),
    executor: createExecutor({ model: executor, contextPolicy: policy }),
    replanner: createReplanner({ model: replanner, contextPolicy: policy }),
    maxIterations: n + 1,
  });
  const result = await new Runner({ agent, appName: 'bench' }).run({ userId: 'u', input: 'Follow the plan.' }).result();
  if (result.status !== 'completed') throw new Error(`bench run ended ${result.status}: ${result.error?.message}`);
  return { tokens: requestTokens([...planner.requests, ...executor.requests, ...replanner.requests]), executor };
}

/** Markdown: prompt tokens per run against step count, per mode and policy. */
export async function planContextTokens(): Promise<string> {
  const counts = [1, 2, 4, 8, 16, 32];
  const columns: [PlanModeOption, string, ContextPolicy][] = (['linear', 'graph'] as const).flatMap((mode) =>
    policies.map(([name, policy]): [PlanModeOption, string, ContextPolicy] => [mode, name, policy]),
  );
  const rows: (string | number)[][] = [];
  for (const n of counts) {
    const row: (string | number)[] = [n];
    for (const [mode, , policy] of columns) row.push((await run(mode, n, policy)).tokens);
    rows.push(row);
  }
  const growth = (col: number) => `${((rows.at(-1)?.[col] as number) / (rows[3]?.[col] as number)).toFixed(1)}×`;
  rows.push(['32 / 8', ...columns.map((_, i) => growth(i + 1))]);
  return [
    '### Plan context: prompt tokens per run (characters / 4) vs steps, chain of steps with ~100-token results',
    '',
    table(['steps', ...columns.map(([mode, name]) => `${mode} ${name}`)], rows),
    '',
    'Linear growth is 4.0× from 8 to 32 steps; quadratic is 16×.',
  ].join('\n');
}

/** Markdown: does step 1's fact reach step 6 under every policy and mode? */
export async function planContextNeedle(): Promise<string> {
  const needle = 'The access code is NEEDLE-7781.';
  const rows: string[][] = [];
  for (const mode of ['linear', 'graph'] as const)
    for (const [name, policy] of policies) {
      const { executor } = await run(mode, 6, policy, needle, 6);
      const step6 = executor.requests[5];
      const text = step6 ? messageText(step6.messages.at(-1)) : '';
      rows.push([mode, name, text.includes('NEEDLE-7781') ? 'yes' : 'NO', String(estimateTokens(text))]);
    }
  return [
    '### Plan context: the needle from step 1 at step 6',
    '',
    table(['mode', 'policy', 'needle at step 6', 'step 6 task-message tokens'], rows),
  ].join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(await planContextTokens());
  console.log();
  console.log(await planContextNeedle());
}
