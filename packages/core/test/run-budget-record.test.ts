import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { InMemorySessionStore, ReActAgent, Runner, tool } from '@replan/core';
import { callTools, ScriptedModel } from '@replan/core/testing';

const echo = tool({ name: 'echo', description: '', parameters: z.object({ v: z.string() }), execute: ({ v }) => v });

/** The stored event that ended the session's last run (`invocationEnd` or the run's error). */
async function endEvent(store: InMemorySessionStore, id: string) {
  const session = await store.get({ appName: 'x', userId: 'u', id });
  return session?.events.findLast((e) => e.actions?.invocationEnd || e.meta?.kind === 'run-error');
}

describe("a run's budget in the log (meta.budget on its end event)", () => {
  it('a completed run with limits stores its limits, what it used and what was left', async () => {
    const store = new InMemorySessionStore();
    const model = new ScriptedModel({
      responses: [callTools({ name: 'echo', args: { v: '1' } }), 'done'],
      usage: { inputTokens: 10, outputTokens: 5 },
    });
    const runner = new Runner({ agent: new ReActAgent({ name: 'a', model, tools: [echo] }), appName: 'x', sessionStore: store });
    await runner.run({ userId: 'u', sessionId: 's', input: 'go', limits: { maxModelCalls: 5, maxTokens: 1000 } }).result();
    expect((await endEvent(store, 's'))?.meta?.budget).toEqual({
      limits: { tokens: 1000, modelCalls: 5 },
      used: { tokens: 30, modelCalls: 2 },
      left: { tokens: 970, modelCalls: 3 },
      onExhausted: 'stop',
    });
  });

  it('a run stopped by its budget stores it on the error event; a run without limits stores none', async () => {
    const store = new InMemorySessionStore();
    const model = new ScriptedModel({ respond: () => callTools({ name: 'echo', args: { v: 'x' } }) });
    const runner = new Runner({ agent: new ReActAgent({ name: 'a', model, tools: [echo] }), appName: 'x', sessionStore: store });
    const stopped = await runner.run({ userId: 'u', sessionId: 'over', input: 'go', limits: { maxModelCalls: 2 } }).result();
    expect(stopped.status).toBe('budget_exceeded');
    expect((await endEvent(store, 'over'))?.meta).toMatchObject({
      kind: 'run-error',
      budget: { limits: { modelCalls: 2 }, left: { modelCalls: 0 } },
    });

    const plain = new Runner({
      agent: new ReActAgent({ name: 'a', model: new ScriptedModel({ responses: ['hi'] }) }),
      appName: 'x',
      sessionStore: store,
    });
    await plain.run({ userId: 'u', sessionId: 'free', input: 'go' }).result();
    const end = await endEvent(store, 'free');
    expect(end?.actions?.invocationEnd?.status).toBe('completed');
    expect(end?.meta).toEqual({ kind: 'invocation-end' });
  });
});
