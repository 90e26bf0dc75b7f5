/**
 * What durability costs the file store: a one-turn run (the model answers at once) and a ReAct
 * turn with 8 parallel 20 ms tools, in memory and on `FileSessionStore` (results that finish
 * together are group-committed), with the flushes (`fsync` + `fdatasync`) each run makes, and
 * appends per second from 8 concurrent sessions (each append awaited before the next).
 * Set REPLAN_CORE to another build of @replan/core (e.g. main's packages/core/dist/index.js)
 * to measure it with the same code: that is how the "before" figures in docs/performance.md
 * were taken. Runs are interleaved and repeated; medians are reported.
 * Run: pnpm bench durable-tools (or: pnpm build && npx tsx bench/durable-tools.ts).
 * `npx tsx bench/durable-tools.ts one-turn 23` makes 23 one-turn runs on a new file store and
 * prints their flushes, to cross-check from outside:
 * strace -f -c -e trace=fsync,fdatasync npx tsx bench/durable-tools.ts one-turn 23
 */
import { mkdtemp, open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import type * as Core from '@replan/core';
import { ScriptedModel, callTools } from '@replan/core/testing';
import { fmt, table } from './measure.js';
import { unfinishedLog } from './session-log.js';

const core = (await import(process.env.REPLAN_CORE ?? '@replan/core')) as typeof Core;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Flushes made through Node's `FileHandle` (every flush of the file store, in any build of it):
 * counted by wrapping `sync` and `datasync` on its prototype. `strace -f -c -e trace=fsync,fdatasync`
 * gives the same counts from outside.
 */
let flushes = 0;
{
  const probe = await open(process.argv[1] ?? '.', 'r');
  const proto = Object.getPrototypeOf(probe) as { sync(): Promise<void>; datasync(): Promise<void> };
  await probe.close();
  for (const name of ['sync', 'datasync'] as const) {
    const original = proto[name];
    proto[name] = function (this: unknown) {
      flushes++;
      return original.call(this);
    };
  }
}

const TOOLS = 8;
const TOOL_MS = 20;
const work = core.tool({
  name: 'work',
  description: 'waits',
  parameters: z.object({ i: z.number() }),
  execute: async ({ i }) => {
    await sleep(TOOL_MS);
    return i;
  },
});

/** One run: with `tools`, a model turn calling 8 tools at once, then an answer; else just the answer. */
async function turn(store: Core.SessionStore, sessionId: string, tools: boolean): Promise<{ ms: number; flushes: number }> {
  const calls = Array.from({ length: TOOLS }, (_, i) => ({ name: 'work', args: { i } }));
  const model = new ScriptedModel({ responses: tools ? [callTools(...calls), 'done'] : ['done'] });
  const agent = new core.ReActAgent({ name: 'bench', model, tools: [work], toolConcurrency: TOOLS });
  const runner = new core.Runner({ agent, appName: 'bench', sessionStore: store });
  const before = flushes;
  const t0 = performance.now();
  const result = await runner.run({ userId: 'u', sessionId, input: 'go' }).result();
  const ms = performance.now() - t0;
  if (result.status !== 'completed') throw new Error(`bench run ended ${result.status}: ${result.error?.message}`);
  return { ms, flushes: flushes - before };
}

type Row = { store: string; run: string; ms: number[]; flushes: number[] };

async function runs(rounds = 21): Promise<(string | number)[][]> {
  const dir = await mkdtemp(join(tmpdir(), 'replan-bench-tools-'));
  try {
    const memory = new core.InMemorySessionStore();
    const file = new core.FileSessionStore({ dir });
    for (let i = 0; i < 3; i++) await turn(file, `warm-${i}`, true); // directories made, code warm
    const rows: Row[] = [];
    const row = (store: string, run: string) => {
      const r: Row = { store, run, ms: [], flushes: [] };
      rows.push(r);
      return (m: { ms: number; flushes: number }) => {
        r.ms.push(m.ms);
        r.flushes.push(m.flushes);
      };
    };
    const memoryOne = row('InMemorySessionStore', 'one turn, new session');
    const fileOne = row('FileSessionStore', 'one turn, new session');
    const memoryTools = row('InMemorySessionStore', '8 tools, new session');
    const fileTools = row('FileSessionStore', '8 tools, new session');
    const fileNext = row('FileSessionStore', '8 tools, next turn of a session');
    await turn(file, 'chat', true); // the session the next turns go to
    for (let i = 0; i < rounds; i++) {
      memoryOne(await turn(memory, `m1-${i}`, false));
      fileOne(await turn(file, `f1-${i}`, false));
      memoryTools(await turn(memory, `m-${i}`, true));
      fileTools(await turn(file, `f-${i}`, true));
      fileNext(await turn(file, 'chat', true));
    }
    await file.close();
    return rows.map((r) => [r.store, r.run, fmt(median(r.ms)), fmt(median(r.flushes), 0)]);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Appends of one event each from `sessions` concurrent sessions; appends per second. */
async function appendRate(sessions: number, perSession = 300): Promise<number> {
  const dir = await mkdtemp(join(tmpdir(), 'replan-bench-rate-'));
  try {
    const store = new core.FileSessionStore({ dir });
    const key = (s: number) => ({ appName: 'bench', userId: 'u', id: `rate-${s}` });
    const logs = Array.from({ length: sessions }, () => unfinishedLog(perSession + 1));
    await Promise.all(logs.map((log, s) => store.create(key(s), log.slice(0, 1))));
    const t0 = performance.now();
    await Promise.all(
      logs.map(async (log, s) => {
        for (let i = 1; i <= perSession; i++) await store.appendEvents(key(s), [log[i] as Core.AgentEvent], { expectedVersion: i });
      }),
    );
    const ms = performance.now() - t0;
    await store.close?.();
    return ((sessions * perSession) / ms) * 1000;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export async function durableTools(): Promise<string> {
  const tools = await runs();
  const rates: number[][] = [[], []];
  for (let i = 0; i < 5; i++) {
    rates[0]!.push(await appendRate(1));
    rates[1]!.push(await appendRate(8));
  }
  return [
    `### One-turn runs and ${TOOLS} parallel ${TOOL_MS} ms tools in one ReAct turn (median of 21)`,
    '',
    'One turn: the model answers at once. 8 tools: model call (instant) → 8 tool calls at once → answer. Timed: the whole `runner.run(...).result()`, session creation and lease included; flushes: `fsync` + `fdatasync` calls during it.',
    '',
    table(['store', 'run', 'ms', 'flushes'], tools),
    '',
    '### FileSessionStore appends per second (median of 5)',
    '',
    table(
      ['sessions', 'appends/s'],
      [
        [1, fmt(median(rates[0]!), 0)],
        [8, fmt(median(rates[1]!), 0)],
      ],
    ),
  ].join('\n');
}

/** `one-turn <n>`: n one-turn runs on a new file store (its directories made first), and their flushes. */
async function oneTurns(n: number): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'replan-bench-one-'));
  try {
    const file = new core.FileSessionStore({ dir });
    await file.create({ appName: 'bench', userId: 'u', id: 'first' });
    let total = 0;
    for (let i = 0; i < n; i++) total += (await turn(file, `one-${i}`, false)).flushes;
    await file.close();
    return `${n} one-turn runs: ${total} flushes (${fmt(total / n, 1)} per run)`;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`)
  console.log(process.argv[2] === 'one-turn' ? await oneTurns(Number(process.argv[3] ?? 23)) : await durableTools());
