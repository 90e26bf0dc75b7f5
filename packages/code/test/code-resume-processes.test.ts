import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { FileSessionStore, type SessionStore } from '@replan/core';
import { PostgresSessionStore } from '@replan/postgres';
import { useTestPostgres } from '../../postgres/test/support/use-test-postgres.js';
import { processScratch } from '../../core/test/support/process-scratch.js';

// A 20-call program SIGKILLed in the middle and resumed in a new process, on the file store and
// on PostgreSQL; then an approval inside the program answered from a third process.
const script = fileURLToPath(new URL('./support/program-process.ts', import.meta.url));
const tsconfig = fileURLToPath(new URL('../../../tsconfig.tests.json', import.meta.url));
const STOP_AT = 13;
const pg = useTestPostgres();

const { children, dir: scratchDir } = processScratch();

function start(args: string[]) {
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

async function scenario(location: readonly string[], openStore: () => SessionStore) {
  const dir = await scratchDir('replan-code-procs-');
  const counts = join(dir, 'counts.txt');
  const args = (mode: string, ...more: string[]) => [...location, counts, mode, 'job', ...more];
  const lines = async () => (await readFile(counts, 'utf8')).trim().split('\n');

  // Process 1 runs the program to the approval at call #10 (index 10: steps 0..9, then approve).
  const first = start(args('run', String(STOP_AT)));
  const firstExit = await first.exit;
  expect(firstExit.code, firstExit.err).toBe(0);
  expect(JSON.parse(firstExit.out)).toMatchObject({ status: 'interrupted', interrupts: ['code1#10:approval'], modelCalls: 1 });
  expect(await lines()).toEqual(Array.from({ length: 10 }, (_, i) => `run ${i} job:code1#${i}`));

  // Process 2 answers the approval, replays to it, goes on, and is SIGKILLed in the middle of step 13.
  const second = start(args('resume', String(STOP_AT), 'code1#10:approval'));
  if ((await second.firstLine) !== 'stopped') throw new Error(`the second process ended before it stopped: ${(await second.exit).err}`);
  second.child.kill('SIGKILL');
  expect((await second.exit).signal).toBe('SIGKILL');

  // Process 3 resumes after the crash: the program replays from the log; the unfinished step 13 runs again.
  const third = start(args('resume'));
  const done = await third.exit;
  expect(done.code, done.err).toBe(0);
  const result = JSON.parse(done.out);
  expect(result.status).toBe('completed');
  expect(result.modelCalls).toBe(1);
  expect(result.output).toContain(JSON.stringify(Array.from({ length: 20 }, (_, i) => i * i)));

  // Every step ran exactly once across the three processes: 0 repeated finished calls.
  const all = await lines();
  const steps = all.filter((l) => l.startsWith('run ')).map((l) => l.split(' ')[1]);
  expect(steps).toEqual(Array.from({ length: 20 }, (_, i) => String(i)));
  expect(all.filter((l) => l.startsWith('approved'))).toEqual(['approved halfway']);
  // The re-run step 13 had the idempotencyKey of its call, as a retry of any call has.
  expect(all).toContain('run 13 job:code1#14'); // call #14: the approval was call #10

  const store = openStore();
  const session = await store.get({ appName: 'code', userId: 'u', id: 'job' });
  const inner = session?.events.filter((e) => e.meta?.codeCall) ?? [];
  expect(inner.filter((e) => e.message?.role === 'tool')).toHaveLength(21);
  expect(inner.filter((e) => e.message?.role === 'assistant')).toHaveLength(21);
  await store.close?.();
}

describe('a 20-call program killed and resumed across processes', () => {
  it('file store: approval answered in another process, SIGKILL mid-call, resume in a third: nothing repeated', async () => {
    const dir = await scratchDir('replan-code-store-');
    await scenario(['file', dir, '-'], () => new FileSessionStore({ dir }));
  });

  pg.it('PostgreSQL: the same, with the session in a PostgresSessionStore', async () => {
    const schema = pg.freshSchema('code');
    await scenario(
      ['postgres', pg.connectionString, schema],
      () => new PostgresSessionStore({ connectionString: pg.connectionString, schema }),
    );
  });
});
