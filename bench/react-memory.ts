/**
 * Memory per ReAct iteration as runs grow: heap retained by a finished run (its session in the
 * in-memory store, with every event) divided by its iterations, at 100 and 1,000 iterations.
 * Linear growth keeps the per-iteration figure flat; quadratic growth (e.g. re-copying the
 * message history into every step's record) would multiply it by ~10.
 * Run: pnpm bench react-memory (needs `--expose-gc`, which the bench script passes).
 */
import { InMemorySessionStore, ReActAgent, Runner } from '@replan/core';
import { fmt, table } from './measure.js';
import { modelFor, noop } from './react-overhead.js';

const gc = (globalThis as { gc?: () => void }).gc;

function heapAfterGc(): number {
  gc?.();
  gc?.();
  return process.memoryUsage().heapUsed;
}

/** Bytes retained per iteration by `runs` finished runs of `iterations` each. */
async function retainedPerIteration(iterations: number, runs: number): Promise<number> {
  const store = new InMemorySessionStore();
  const before = heapAfterGc();
  for (let r = 0; r < runs; r++) {
    const agent = new ReActAgent({ name: 'bench', model: modelFor(iterations), tools: [noop], maxIterations: iterations + 1 });
    const result = await new Runner({ agent, appName: 'bench', sessionStore: store }).run({ userId: 'u', input: 'go' }).result();
    if (result.status !== 'completed') throw new Error(`bench run ended ${result.status}`);
  }
  const after = heapAfterGc();
  // Keep the store alive until measured.
  if ((await store.list({ appName: 'bench', userId: 'u', limit: 1 })).sessions.length !== 1) throw new Error('no session');
  return (after - before) / (iterations * runs);
}

export async function reactMemory(): Promise<string> {
  if (!gc) return '### ReAct memory per iteration\n\nSkipped: run with `node --expose-gc` (`pnpm bench` does).';
  await retainedPerIteration(100, 5); // warm-up: code and JIT state are not the run's memory
  const rows: (string | number)[][] = [];
  const per: Record<number, number> = {};
  for (const [iterations, runs] of [
    [100, 20],
    [1000, 2],
  ] as const) {
    per[iterations] = await retainedPerIteration(iterations, runs);
    rows.push([iterations, runs, fmt(per[iterations] as number, 0)]);
  }
  return [
    '### ReAct memory per iteration (bytes retained per iteration, session kept in the in-memory store)',
    '',
    table(['iterations per run', 'runs', 'bytes per iteration'], rows),
    '',
    `1,000 / 100 iterations: ${fmt((per[1000] as number) / (per[100] as number), 2)}× per iteration (linear = 1.0, quadratic ≈ 10).`,
  ].join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(await reactMemory());
