/**
 * What durability costs the file store (issue 10, item 8): a ReAct turn with 8 parallel 20 ms
 * tools, in memory and on `FileSessionStore` (results that finish together are group-committed),
 * and appends per second from 8 concurrent sessions (each append awaited before the next).
 * Set REPLAN_CORE to another build of @replan/core (e.g. main's packages/core/dist/index.js)
 * to measure it with the same code: that is how the "before" figures in docs/performance.md
 * were taken. Runs are interleaved and repeated; medians are reported.
 * Run: pnpm bench durable-tools (or: pnpm build && npx tsx bench/durable-tools.ts)
 */
import { mkdtemp, rm } from 'node:fs/promises';
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

/** One run: a model turn calling 8 tools at once, then an answer. Returns its wall time. */
async function turn(store: Core.SessionStore, sessionId: string): Promise<number> {
  const calls = Array.from({ length: TOOLS }, (_, i) => ({ name: 'work', args: { i } }));
  const model = new ScriptedModel({ responses: [callTools(...calls), 'done'] });
  const agent = new core.ReActAgent({ name: 'bench', model, tools: [work], toolConcurrency: TOOLS });
  const runner = new core.Runner({ agent, appName: 'bench', sessionStore: store });
  const t0 = performance.now();
  const result = await runner.run({ userId: 'u', sessionId, input: 'go' }).result();
  const ms = performance.now() - t0;
  if (result.status !== 'completed') throw new Error(`bench run ended ${result.status}: ${result.error?.message}`);
  return ms;
}

async function parallelTools(rounds = 21): Promise<(string | number)[][]> {
  const dir = await mkdtemp(join(tmpdir(), 'replan-bench-tools-'));
  try {
    const memory = new core.InMemorySessionStore();
    const file = new core.FileSessionStore({ dir });
    const times = { memoryNew: [] as number[], fileNew: [] as number[], fileNext: [] as number[] };
    for (let i = 0; i < 3; i++) await turn(file, `warm-${i}`); // directories made, code warm
    for (let i = 0; i < rounds; i++) {
      times.memoryNew.push(await turn(memory, `m-${i}`));
      times.fileNew.push(await turn(file, `f-${i}`));
      times.fileNext.push(await turn(file, 'chat')); // a further turn of one session
    }
    await file.close();
    return [
      ['InMemorySessionStore', 'new session', fmt(median(times.memoryNew))],
      ['FileSessionStore', 'new session', fmt(median(times.fileNew))],
      ['FileSessionStore', 'next turn of a session', fmt(median(times.fileNext.slice(1)))],
    ];
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
  const tools = await parallelTools();
  const rates: number[][] = [[], []];
  for (let i = 0; i < 5; i++) {
    rates[0]!.push(await appendRate(1));
    rates[1]!.push(await appendRate(8));
  }
  return [
    `### ${TOOLS} parallel ${TOOL_MS} ms tools in one ReAct turn (ms, median)`,
    '',
    'Model call (instant) → 8 tool calls at once → answer: the whole `runner.run(...).result()`, session creation included.',
    '',
    table(['store', 'run', 'ms'], tools),
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

if (import.meta.url === `file://${process.argv[1]}`) console.log(await durableTools());
