// A process for the compaction-across-processes test: runs or resumes the long step on a
// FileSessionStore, appending each tool run ("run <n>") and model call ("act", "sum") to a file.
// Run with TSX_TSCONFIG_PATH=tsconfig.tests.json, so `@replan/core` is the sources:
//   node --import tsx long-step-process.ts <dir> <count-file> run <sessionId> <count> <stop-at>
//   node --import tsx long-step-process.ts <dir> <count-file> resume <sessionId> <count>
// `run` prints "stopped" once <stop-at> tool results are stored, from within the acting model's
// next call, then waits to be killed (SIGKILL: a crash mid-step, that call in flight). Both print
// the run's result as JSON when it ends.
import { appendFileSync, writeSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { FileSessionStore } from '@replan/core';
import { compactingRunner } from './compacting-runner.js';
import { longStep } from './long-step.js';

const [dir, countFile, mode, sessionId, count, stopAt] = process.argv.slice(2) as [string, string, string, string, string, string?];
const note = (line: string) => appendFileSync(countFile, `${line}\n`);
const store = new FileSessionStore({ dir });

/** Waits until the log holds `n` tool results: a result may still be on its way to the disk as the model is called. */
async function storedResults(n: number): Promise<void> {
  const key = { appName: 'long', userId: 'u', id: sessionId };
  for (;;) {
    const session = await new FileSessionStore({ dir }).get(key);
    if ((session?.events.filter((e) => e.message?.role === 'tool').length ?? 0) >= n) return;
    await sleep(5);
  }
}

const step = longStep(Number(count), {
  onRun: (n) => note(`run ${n}`),
  onCall: async (model) => {
    note(model);
    if (mode === 'run' && model === 'act' && step.fetched() === Number(stopAt)) {
      await storedResults(Number(stopAt));
      writeSync(1, 'stopped\n');
      // Blocks this thread without spinning until the test kills the process; gone after 60 s regardless.
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 60_000);
      process.exit(3);
    }
  },
});
const runner = compactingRunner(step, {}, store);
const result =
  mode === 'run'
    ? await runner.run({ userId: 'u', sessionId, input: 'go' }).result()
    : await runner.resume({ userId: 'u', sessionId }).result();
writeSync(1, `${JSON.stringify({ status: result.status, output: result.output, error: result.error?.message })}\n`);
