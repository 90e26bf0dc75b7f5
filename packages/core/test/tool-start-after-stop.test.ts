import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { InMemorySessionStore, LeaseLostError, ReActAgent, Runner, agentTool, hooks, tool, type SessionStore } from '@replan/core';
import { ScriptedModel, callTools, holdAppend } from '@replan/core/testing';

afterEach(() => {
  vi.useRealTimers();
});

/** Holds the first append that stores a call of tool `name` in flight (written, not yet answered). */
const holdCallOf = (store: SessionStore, name: string) =>
  holdAppend(store, {
    when: (events) =>
      events.some((e) => e.message?.role === 'assistant' && e.message.content.some((b) => b.type === 'tool_call' && b.name === name)),
  });

/** A tool that counts how often `execute` was called. */
function counted(name: string) {
  const runs = { count: 0 };
  const t = tool({ name, description: `counts (${name})`, parameters: z.object({}), execute: () => (runs.count++, `${name} done`) });
  return { tool: t, runs };
}

describe('a tool never starts once its run stopped', () => {
  it('starts no queued call after an abort: only the call already running may run again on resume', async () => {
    let releaseFirst: () => void = () => undefined;
    const firstRunning = new Promise<void>((resolve) => (releaseFirst = resolve));
    const runs = { first: 0, second: 0 };
    const hooked: string[] = [];
    const first = tool({
      name: 'first',
      description: 'runs until aborted the first time',
      parameters: z.object({}),
      execute: async (_args, ctx) => {
        if (++runs.first > 1) return 'first done';
        releaseFirst();
        await new Promise((_resolve, reject) => ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason)));
        return 'unreachable';
      },
    });
    const second = tool({ name: 'second', description: 'counts', parameters: z.object({}), execute: () => (runs.second++, 'second done') });
    const model = new ScriptedModel({ responses: [callTools({ name: 'first', id: 'f' }, { name: 'second', id: 's' }), 'done'] });
    const runner = new Runner({
      agent: new ReActAgent({
        name: 'a',
        model,
        tools: [first, second],
        toolConcurrency: 1, // `second` waits for a slot while `first` runs
        middleware: [hooks({ beforeTool: (ctx) => void hooked.push(ctx.call.name) })],
      }),
      appName: 'x',
      sessionStore: new InMemorySessionStore(),
    });
    const run = runner.run({ userId: 'u', sessionId: 's', input: 'go' });
    await firstRunning;
    run.abort();
    expect((await run.result()).status).toBe('aborted');
    expect(runs).toEqual({ first: 1, second: 0 });
    expect(hooked).toEqual(['first']); // not even its beforeTool hook ran
    expect((await runner.resume({ userId: 'u', sessionId: 's' }).result()).status).toBe('completed');
    expect(runs).toEqual({ first: 2, second: 1 });
  });

  it('ends failed with LeaseLostError, the tool never started, when the lease ran out by its own clock while the tool-call append was in flight', async () => {
    const store = new InMemorySessionStore();
    const held = holdCallOf(store, 'transfer');
    const transfer = counted('transfer');
    const runner = new Runner({
      agent: new ReActAgent({
        name: 'a',
        model: new ScriptedModel({ responses: [callTools({ name: 'transfer' }), 'sent'] }),
        tools: [transfer.tool],
      }),
      appName: 'x',
      sessionStore: held.store,
      leaseMs: 60_000, // the heartbeat (every 20 s) does not come while the append is held
    });
    const run = runner.run({ userId: 'u', sessionId: 's', input: 'go' });
    await held.written;
    // The process was paused past its lease (only the clock moves: timers stay real).
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 61_000);
    held.release();
    const result = await run.result();
    expect(result.status).toBe('failed');
    expect(result.error).toBeInstanceOf(LeaseLostError);
    expect(transfer.runs.count).toBe(0);
  });

  it("starts no tool of an agentTool's child session once the parent run was aborted while the child's tool-call append was in flight", async () => {
    const store = new InMemorySessionStore();
    const held = holdCallOf(store, 'transfer');
    const transfer = counted('transfer');
    const inner = new ReActAgent({
      name: 'payer',
      description: 'pays',
      model: new ScriptedModel({ responses: [callTools({ name: 'transfer' }), 'paid'] }),
      tools: [transfer.tool],
    });
    const outer = new ScriptedModel({ responses: [callTools({ name: 'pay', args: { input: 'rent' } }), 'done'] });
    const runner = new Runner({
      agent: new ReActAgent({ name: 'root', model: outer, tools: [agentTool(inner, { name: 'pay' })] }),
      appName: 'x',
      sessionStore: held.store,
    });
    const run = runner.run({ userId: 'u', sessionId: 's', input: 'go' });
    await held.written;
    run.abort();
    held.release();
    expect((await run.result()).status).toBe('aborted');
    expect(transfer.runs.count).toBe(0);
    const resumed = await runner.resume({ userId: 'u', sessionId: 's' }).result();
    expect(resumed).toMatchObject({ status: 'completed', output: 'done' });
    expect(transfer.runs.count).toBe(1);
  });
});
