/**
 * Framework overhead per ReAct iteration (one model call + one tool call, events stored in the
 * in-memory store), against a hand-written loop making the same model and tool calls.
 * Run: pnpm bench (or: pnpm build && npx tsx bench/react-overhead.ts)
 */
import { z } from 'zod';
import {
  type ChatModel,
  InMemorySessionStore,
  type Middleware,
  type ModelRequest,
  ReActAgent,
  Runner,
  tool,
  toolCallsOf,
} from '@replan/core';
import { ScriptedModel, callTools } from '@replan/core/testing';
import { fmt, medianMs, table } from './measure.js';

export const noop = tool({ name: 'noop', description: 'does nothing', parameters: z.object({ i: z.number() }), execute: ({ i }) => i });

/** A zero-latency model that calls `noop` until `iterations` calls were made, then answers. */
export const modelFor = (iterations: number) =>
  new ScriptedModel({
    respond: (_req, call) => (call + 1 < iterations ? callTools({ name: 'noop', args: { i: call } }) : 'done'),
  });

/** A middleware that takes part in every model and tool call and changes nothing: what the onion itself costs. */
const passThrough: Middleware = {
  name: 'passThrough',
  prepareRequest: (request) => request,
  wrapModelCall: (next, request) => next(request),
  wrapToolCall: (next, call) => next(call),
};

async function framework(iterations: number, middleware: readonly Middleware[] = []): Promise<void> {
  const agent = new ReActAgent({ name: 'bench', model: modelFor(iterations), tools: [noop], maxIterations: iterations + 1, middleware });
  const result = await new Runner({ agent, appName: 'bench' }).run({ userId: 'u', input: 'go' }).result();
  if (result.status !== 'completed') throw new Error(`bench run ended ${result.status}: ${result.error?.message}`);
}

/** The same model and tool calls, with a plain array of messages and no events or store. */
async function handWritten(iterations: number): Promise<void> {
  const model: ChatModel = modelFor(iterations);
  const messages: ModelRequest['messages'][number][] = [{ role: 'user', content: [{ type: 'text', text: 'go' }] }];
  const tools = [{ name: noop.name, description: noop.description, parameters: noop.jsonSchema }];
  for (;;) {
    const response = await model.generate({ messages, tools });
    messages.push(response.message);
    const calls = toolCallsOf(response.message);
    if (!calls.length) return;
    for (const call of calls) {
      const parsed = noop.parseArgs(call.args);
      if (!parsed.ok) throw new Error(parsed.issues);
      const output = await noop.execute(parsed.value, undefined as never);
      messages.push({ role: 'tool', content: [{ type: 'tool_result', toolCallId: call.id, name: call.name, output }] });
    }
  }
}

const gc = (globalThis as { gc?: () => void }).gc;

/**
 * The heap in use once garbage is collected and swept: V8 sweeps in the background after a full
 * collection, and `heapUsed` counts unswept garbage until then, so read it after a pause.
 */
async function heapAfterGc(): Promise<number> {
  for (let i = 0; i < 3; i++) {
    gc?.();
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return process.memoryUsage().heapUsed;
}

/**
 * Heap retained per finished 50-iteration run, its session kept in the in-memory store (the
 * peers' comparison measures the same: what a run leaves behind), in KB. Needs `--expose-gc`.
 */
async function kbPerRun(iterations = 50, runs = 200): Promise<number | undefined> {
  if (!gc) return undefined;
  const store = new InMemorySessionStore();
  const once = async () => {
    const agent = new ReActAgent({ name: 'bench', model: modelFor(iterations), tools: [noop], maxIterations: iterations + 1 });
    await new Runner({ agent, appName: 'bench', sessionStore: store }).run({ userId: 'u', input: 'go' }).result();
  };
  // Code and JIT state are not a run's memory: warm up first (the warm-up's sessions are counted
  // in neither figure, as they were stored before `before`).
  for (let r = 0; r < 50; r++) await once();
  const before = await heapAfterGc();
  for (let r = 0; r < runs; r++) await once();
  const after = await heapAfterGc();
  if (!(await store.list({ appName: 'bench', userId: 'u', limit: 1 })).sessions.length) throw new Error('sessions lost'); // keeps the store alive
  return (after - before) / runs / 1024;
}

export async function reactOverhead(): Promise<string> {
  const sizes = [10, 50, 100];
  // Warm both loops up on every size first: the JIT and the GC settle, so sizes compare fairly.
  for (let round = 0; round < 100; round++)
    for (const n of sizes) {
      await framework(n);
      await handWritten(n);
    }
  const rows: (string | number)[][] = [];
  const perIteration: Record<number, number> = {};
  for (const n of sizes) {
    const fw = (await medianMs(() => framework(n), 201, 0)) / n;
    const hw = (await medianMs(() => handWritten(n), 201, 0)) / n;
    perIteration[n] = fw;
    rows.push([n, fmt(fw * 1000), fmt(hw * 1000), fmt(fw / hw)]);
  }
  const flat = (perIteration[100] as number) / (perIteration[10] as number);
  for (let round = 0; round < 100; round++) await framework(50, [passThrough]);
  const withMiddleware = (await medianMs(() => framework(50, [passThrough]), 201, 0)) / 50;
  const kb = await kbPerRun();
  return [
    '### ReAct overhead per iteration (µs, median of 201 runs after warm-up)',
    '',
    table(['iterations per run', 'replan', 'hand-written loop', 'ratio'], rows),
    '',
    `Per-iteration cost at 100 iterations / at 10: ${fmt(flat, 2)}× (flat = 1.0; below 1 where per-run set-up is spread over more iterations).`,
    '',
    `With one pass-through middleware in every model and tool call (50 iterations): ${fmt(withMiddleware * 1000)} µs per iteration.`,
    '',
    kb === undefined
      ? 'Memory per run: skipped (run with `node --expose-gc`; `pnpm bench` does).'
      : `Memory per 50-iteration run (heap retained, session kept in the in-memory store): ${fmt(kb, 1)} KB.`,
  ].join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(await reactOverhead());
