import { describe, expect, it } from 'vitest';
import { InMemorySessionStore, type SessionStore, tool, toolResultsOf } from '@replan/core';
import { z } from 'zod';
import { holdAppend } from '@replan/core/testing';
import { CodeReplayMismatchError } from '@replan/code';
import { codeRunner, countingTools } from './support.js';

const TWENTY = 'const out = [];\nfor (let i = 0; i < 20; i++) out.push(await tools.step({ i }));\nreturn out;';

/** A `step` tool that records each run (with its idempotencyKey) and, on run `stopAt`, waits until the run is aborted. */
function stepTool(runs: string[], stopAt?: { at: number; abort: () => void }) {
  return tool({
    name: 'step',
    description: 'One step.',
    parameters: z.object({ i: z.number() }),
    execute: async ({ i }, ctx) => {
      if (stopAt && i === stopAt.at) {
        stopAt.abort(); // a crash in the middle of this call: it started, it never finishes
        await new Promise((r) => ctx.signal.addEventListener('abort', r, { once: true }));
        throw new Error('aborted');
      }
      runs.push(`${i}@${ctx.idempotencyKey}`);
      return i * 10;
    },
  });
}

const innerEvents = async (store: SessionStore) =>
  ((await store.get({ appName: 'code', userId: 'u', id: 's' }))?.events ?? []).filter((e) => e.meta?.codeCall);

describe('durable by replay', () => {
  it('an inner result is durable before the program goes on: no next call starts before its append is acknowledged', async () => {
    const runs: string[] = [];
    const held = holdAppend(new InMemorySessionStore(), {
      when: (events) => events.some((e) => (e.meta?.codeCall as { index?: number } | undefined)?.index === 0 && e.message?.role === 'tool'),
    });
    const { runner } = codeRunner('const a = await tools.add({ a: 1, b: 1 });\nreturn await tools.add({ a, b: 1 });', countingTools(runs), {
      store: held.store,
    });
    const run = runner.run({ userId: 'u', sessionId: 's', input: 'go' });
    await held.written;
    await new Promise((r) => setTimeout(r, 50));
    expect(runs).toEqual(['add:1+1']); // the program has not gone on: its first result is not acknowledged yet
    held.release();
    expect((await run.result()).status).toBe('completed');
    expect(runs).toEqual(['add:1+1', 'add:2+1']);
  });

  it('a program stopped after 7 of 20 calls resumes from the log: no finished call runs again, the unfinished one does', async () => {
    const store = new InMemorySessionStore();
    const runs: string[] = [];
    const abort = new AbortController();
    const first = codeRunner(TWENTY, [stepTool(runs, { at: 7, abort: () => abort.abort() })], { store });
    const stopped = await first.runner.run({ userId: 'u', sessionId: 's', input: 'go', signal: abort.signal }).result();
    expect(stopped.status).toBe('aborted');
    expect(runs).toHaveLength(7);
    // Call #7 started (its tool_call is stored) and has no result.
    const before = await innerEvents(store);
    expect(before.filter((e) => e.message?.role === 'tool')).toHaveLength(7);
    expect(before.at(-1)?.message?.content[0]).toMatchObject({ type: 'tool_call', id: 'code1#7' });

    const again = codeRunner(TWENTY, [stepTool(runs)], { store });
    const resumed = await again.runner.resume({ userId: 'u', sessionId: 's' }).result();
    expect(resumed.status).toBe('completed');
    expect(runs.slice(7)).toEqual(Array.from({ length: 13 }, (_, k) => `${k + 7}@s:code1#${k + 7}`));
    expect(new Set(runs.map((r) => r.split('@')[0])).size).toBe(20); // 0 repeated finished calls
    const answer = toolResultsOf(again.model.requests[0]?.messages.at(-1) as never)[0];
    expect(answer?.output).toEqual({ result: Array.from({ length: 20 }, (_, i) => i * 10) });
    // The context rebuilt from the log on resume has the code call and its result, none of the 20 inner calls.
    const request = again.model.requests[0]?.messages ?? [];
    expect(JSON.stringify(request)).not.toContain('code1#');
    expect(request.map((m) => m.role)).toEqual(['user', 'assistant', 'tool']);
    // The unfinished call's tool_call is not stored twice.
    const calls = (await innerEvents(store)).filter((e) => e.message?.role === 'assistant');
    expect(calls.map((e) => (e.message?.content[0] as { id?: string } | undefined)?.id)).toEqual(
      Array.from({ length: 20 }, (_, i) => `code1#${i}`),
    );
  });

  it('a program that calls differently on the re-run fails the code call with CodeReplayMismatchError, nothing run', async () => {
    // The program's calls depend on the tool list (not on its tools' results): a new deployment changed it.
    const program = 'const out = [];\nfor (const name of Object.keys(tools)) out.push(await tools[name]({ a: 1, b: 2 }));\nreturn out;';
    const store = new InMemorySessionStore();
    const runs: string[] = [];
    const abort = new AbortController();
    const [add] = countingTools(runs);
    const hang = (name: string) =>
      tool({
        name,
        description: name,
        parameters: z.object({ a: z.number(), b: z.number() }),
        execute: async (_args, ctx) => {
          abort.abort();
          await new Promise((r) => ctx.signal.addEventListener('abort', r, { once: true }));
        },
      });
    const first = codeRunner(program, [add!, hang('mul')], { store });
    expect((await first.runner.run({ userId: 'u', sessionId: 's', input: 'go', signal: abort.signal }).result()).status).toBe('aborted');
    expect(runs).toEqual(['add:1+2']);

    const swapped = codeRunner(program, [hang('mul'), add!], { store });
    const resumed = await swapped.runner.resume({ userId: 'u', sessionId: 's' }).result();
    expect(resumed.status).toBe('completed');
    const block = toolResultsOf(swapped.model.requests[0]?.messages.at(-1) as never)[0];
    expect(block?.isError).toBe(true);
    expect(String(block?.output)).toContain('replayed differently from its record at inner call #0');
    expect(String(block?.output)).toContain('the program called tools.mul, the record has tools.add');
    expect(runs).toEqual(['add:1+2']); // nothing re-run
  });

  it('fewer calls than the record, and other arguments, are mismatches too', async () => {
    const store = new InMemorySessionStore();
    const runs: string[] = [];
    const abort = new AbortController();
    const program = 'const n = Object.keys(tools).length;\nawait tools.add({ a: n, b: 0 });\nif (n > 1) await tools.wait({});\nreturn n;';
    const [add] = countingTools(runs);
    const wait = tool({
      name: 'wait',
      description: 'waits',
      parameters: z.object({}),
      execute: async (_a, ctx) => {
        abort.abort();
        await new Promise((r) => ctx.signal.addEventListener('abort', r, { once: true }));
      },
    });
    const first = codeRunner(program, [add!, wait], { store });
    await first.runner.run({ userId: 'u', sessionId: 's', input: 'go', signal: abort.signal }).result();
    // One tool fewer: the first call's arguments differ (n = 1).
    const fewer = codeRunner(program, [add!], { store });
    await fewer.runner.resume({ userId: 'u', sessionId: 's' }).result();
    const block = toolResultsOf(fewer.model.requests[0]?.messages.at(-1) as never)[0];
    expect(String(block?.output)).toContain('tools.add got the arguments {"a":1,"b":0}, the record has {"a":2,"b":0}');
    expect(runs).toEqual(['add:2+0']);
  });

  it('CodeReplayMismatchError says what differed and what to do', () => {
    const error = new CodeReplayMismatchError('c1', 3, 'the program called tools.a, the record has tools.b');
    expect(error.name).toBe('CodeReplayMismatchError');
    expect(error.message).toContain('inner call #3');
    expect(error.message).toContain('write a new program');
  });
});
