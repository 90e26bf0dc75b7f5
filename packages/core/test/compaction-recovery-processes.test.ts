import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { FileSessionStore } from '@replan/core';

// The long step run in one process, killed mid-step, and resumed in another (in one process: compaction-recovery.test.ts).
const script = fileURLToPath(new URL('./support/long-step-process.ts', import.meta.url));
// The child resolves `@replan/core` to the sources, as the tests do, through this tsconfig's paths.
const tsconfig = fileURLToPath(new URL('../../../tsconfig.tests.json', import.meta.url));
const COUNT = 40;
const STOP_AT = 25;

const dirs: string[] = [];
const children: ChildProcess[] = [];
afterEach(async () => {
  for (const child of children.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

interface Child {
  readonly child: ChildProcess;
  /** Resolves with the first stdout line. */
  readonly firstLine: Promise<string>;
  readonly exit: Promise<{ code: number | null; signal: NodeJS.Signals | null; out: string; err: string }>;
}

function start(args: string[]): Child {
  const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, TSX_TSCONFIG_PATH: tsconfig },
  });
  children.push(child);
  let out = '';
  let err = '';
  let onLine: (line: string) => void = () => undefined;
  const firstLine = new Promise<string>((resolve) => (onLine = resolve));
  child.stdout?.on('data', (d) => {
    out += d;
    if (out.includes('\n')) onLine(out.slice(0, out.indexOf('\n')));
  });
  child.stderr?.on('data', (d) => (err += d));
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null; out: string; err: string }>((resolve) =>
    child.on('exit', (code, signal) => {
      onLine(out);
      resolve({ code, signal, out, err });
    }),
  );
  return { child, firstLine, exit };
}

describe('compaction and resume across processes', () => {
  it('a process killed mid-step resumes in a new process: no tool re-run, no compaction redone', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'replan-compaction-procs-'));
    dirs.push(dir);
    const counts = join(dir, 'counts.txt');
    const sessionId = 'long-run';

    const first = start([dir, counts, 'run', sessionId, String(COUNT), String(STOP_AT)]);
    if ((await first.firstLine) !== 'stopped') throw new Error(`The first process ended before it stopped: ${(await first.exit).err}`);
    first.child.kill('SIGKILL'); // a crash, the acting model's call in flight
    const killed = await first.exit;
    expect(killed.signal).toBe('SIGKILL');

    const lines = async () => (await readFile(counts, 'utf8')).trim().split('\n');
    const beforeResume = await lines();
    const summarizedBefore = beforeResume.filter((l) => l === 'sum').length;
    expect(summarizedBefore).toBeGreaterThan(0); // the first process compacted already
    const store = new FileSessionStore({ dir });
    const key = { appName: 'long', userId: 'u', id: sessionId };
    const stored = await store.get(key);
    const compactedBefore = stored?.events.filter((e) => e.actions?.compaction) ?? [];
    expect(compactedBefore).toHaveLength(summarizedBefore);

    const second = start([dir, counts, 'resume', sessionId, String(COUNT)]);
    const resumed = await second.exit;
    expect(resumed.code, resumed.err).toBe(0);
    expect(JSON.parse(resumed.out)).toEqual({ status: 'completed', output: `facts kept: ${COUNT}` });

    const all = await lines();
    // Every source fetched exactly once, across both processes.
    const runs = all.filter((l) => l.startsWith('run ')).map((l) => Number(l.slice(4)));
    expect(runs).toEqual(Array.from({ length: COUNT }, (_, i) => i + 1));
    // The new process read the stored summary back: its first model call acts, it does not summarise.
    const afterResume = all.slice(beforeResume.length).filter((l) => l === 'act' || l === 'sum');
    expect(afterResume[0]).toBe('act');
    // Each summarizer call, in either process, is one compaction in the log, each over a new stretch.
    const session = await store.get(key);
    const compactions = session?.events.flatMap((e) => (e.actions?.compaction ? [e.actions.compaction] : [])) ?? [];
    expect(compactions).toHaveLength(all.filter((l) => l === 'sum').length);
    expect(compactions.slice(0, compactedBefore.length)).toEqual(compactedBefore.map((e) => e.actions?.compaction));
    expect(new Set(compactions.map((c) => c.through)).size).toBe(compactions.length);
    await store.close();
  });
});
