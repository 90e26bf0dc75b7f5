import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { InMemorySessionStore, ReActAgent, Runner, tool, toolCallsOf, type AgentEvent, type SessionStore } from '@replan/core';
import { ScriptedModel, callTools } from '@replan/core/testing';
import { sleep } from './support.js';

/** An in-memory store whose appends take `ms`, recording each batch and which events are durable. */
function slowStore(ms: number) {
  const inner = new InMemorySessionStore();
  const batches: AgentEvent[][] = [];
  const durable = new Set<string>();
  const durableCalls = new Set<string>();
  const store: SessionStore = {
    async create(s, e) {
      const created = await inner.create(s, e);
      for (const event of e ?? []) durable.add(event.id);
      return created;
    },
    get: (k) => inner.get(k),
    list: (i) => inner.list(i),
    delete: (k) => inner.delete(k),
    async appendEvents(k, events, options) {
      await sleep(ms);
      const r = await inner.appendEvents(k, events, options);
      batches.push([...events]);
      for (const e of events) {
        durable.add(e.id);
        for (const call of toolCallsOf(e.message)) durableCalls.add(call.id);
      }
      return r;
    },
  };
  return { store, batches, durable, durableCalls };
}

describe('group commit of tool results', () => {
  it('stores results that finish together in one append; the tool calls are durable before any tool runs; the caller sees only durable events', async () => {
    const { store, batches, durable, durableCalls } = slowStore(15);
    const toolSawCallStored: boolean[] = [];
    const work = tool({
      name: 'work',
      description: 'waits',
      parameters: z.object({ i: z.number() }),
      execute: async ({ i }, ctx) => {
        toolSawCallStored.push(durableCalls.has(ctx.toolCallId));
        await sleep(20 + i); // finish nearly together, one after another
        return i;
      },
    });
    const calls = Array.from({ length: 8 }, (_, i) => ({ name: 'work', args: { i } }));
    const model = new ScriptedModel({ responses: [callTools(...calls), 'done'] });
    const runner = new Runner({
      agent: new ReActAgent({ name: 'a', model, tools: [work], toolConcurrency: 8 }),
      appName: 'g',
      sessionStore: store,
    });
    const seen: AgentEvent[] = [];
    const notDurableWhenSeen: string[] = [];
    const run = runner.run({ userId: 'u', input: 'go' });
    for await (const event of run) {
      if (event.partial) continue;
      if (!durable.has(event.id)) notDurableWhenSeen.push(event.id);
      seen.push(event);
    }
    expect((await run.result()).status).toBe('completed');
    expect(notDurableWhenSeen).toEqual([]);
    expect(toolSawCallStored).toEqual(Array(8).fill(true));
    const resultBatches = batches.filter((b) => b.some((e) => e.message?.role === 'tool'));
    expect(resultBatches.flat().filter((e) => e.message?.role === 'tool').length).toBe(8);
    expect(resultBatches.length).toBeLessThan(8); // old: one append per result
    // The caller saw them in stored order.
    expect(seen.map((e) => e.id)).toEqual([...durable].filter((id) => seen.some((s) => s.id === id)));
  });

  it('a failed append of a result ends the run failed, and the next model call is not stored', async () => {
    const inner = new InMemorySessionStore();
    let fail = false;
    const store: SessionStore = {
      create: (s, e) => inner.create(s, e),
      get: (k) => inner.get(k),
      list: (i) => inner.list(i),
      delete: (k) => inner.delete(k),
      async appendEvents(k, events, options) {
        if (fail && events.some((e) => e.message?.role === 'tool')) throw new Error('disk on fire');
        return inner.appendEvents(k, events, options);
      },
    };
    const t = tool({
      name: 't',
      description: 'x',
      parameters: z.object({}),
      execute: () => {
        fail = true;
        return 'r';
      },
    });
    const model = new ScriptedModel({ responses: [callTools({ name: 't', args: {} }), 'done'] });
    const runner = new Runner({ agent: new ReActAgent({ name: 'a', model, tools: [t] }), appName: 'g', sessionStore: store });
    const result = await runner.run({ userId: 'u', sessionId: 's', input: 'go' }).result();
    expect(result.status).toBe('failed');
    expect(result.error?.message).toMatch(/disk on fire/);
    const stored = (await inner.get({ appName: 'g', userId: 'u', id: 's' }))!.events;
    expect(stored.some((e) => e.message?.role === 'tool')).toBe(false);
    expect(stored.some((e) => e.message?.role === 'assistant' && !toolCallsOf(e.message).length)).toBe(false);
  });
});
