import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  ConcurrentUpdateError,
  ConfigurationError,
  SessionBusyError,
  type SessionStore,
  InMemorySessionStore,
  ReActAgent,
  Runner,
  SequentialAgent,
  SessionNotFoundError,
  tool,
} from '@replan/core';
import { ScriptedModel, callTools } from '@replan/core/testing';
import { sleep } from './support.js';

const echo = tool({ name: 'echo', description: '', parameters: z.object({ v: z.string() }), execute: ({ v }) => v });

describe('Runner', () => {
  it('refuses an agent tree with duplicate names', () => {
    const model = new ScriptedModel();
    const a = new ReActAgent({ name: 'same', model });
    const b = new ReActAgent({ name: 'same', model });
    expect(() => new SequentialAgent({ name: 'root', subAgents: [a, b] })).toThrow(ConfigurationError);
    const nested = new SequentialAgent({ name: 'inner', subAgents: [a] });
    const outer = new SequentialAgent({ name: 'outer', subAgents: [nested, new SequentialAgent({ name: 'other', subAgents: [b] })] });
    expect(() => new Runner({ agent: outer, appName: 'x' })).toThrow(/"same" is used twice/);
  });

  it('rejects resuming an unknown session with SessionNotFoundError', async () => {
    const runner = new Runner({ agent: new ReActAgent({ name: 'a', model: new ScriptedModel() }), appName: 'x' });
    await expect(runner.resume({ userId: 'u', sessionId: 'missing' }).result()).rejects.toBeInstanceOf(SessionNotFoundError);
  });

  it('a session not found in the default in-memory store says so (a second process that forgot sessionStore)', async () => {
    const agent = new ReActAgent({ name: 'a', model: new ScriptedModel() });
    // What a second process sees: its own Runner, its own (empty) memory.
    const forgot = new Runner({ agent, appName: 'x' });
    const error = await forgot
      .resume({ userId: 'u', sessionId: 'from-elsewhere' })
      .result()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SessionNotFoundError);
    expect((error as Error).message).toMatch(/given no sessionStore, so it keeps sessions in memory, in this process only/);
    expect((error as Error).message).toContain('new FileSessionStore({ dir })');
    // A store the application chose (even an in-memory one) is not second-guessed.
    const chosen = new Runner({ agent, appName: 'x', sessionStore: new InMemorySessionStore() });
    const plain = await chosen
      .resume({ userId: 'u', sessionId: 'missing' })
      .result()
      .catch((e: unknown) => e);
    expect((plain as Error).message).not.toContain('in memory');
    expect((plain as Error).message).toContain('Check the ids');
  });

  it('creates a session under a given new id and continues it on the next run', async () => {
    const model = new ScriptedModel({ responses: ['first', 'second'] });
    const runner = new Runner({ agent: new ReActAgent({ name: 'a', model }), appName: 'x' });
    await runner.run({ userId: 'u', sessionId: 'chosen', input: 'one' }).result();
    const r2 = await runner.run({ userId: 'u', sessionId: 'chosen', input: 'two' }).result();
    expect(r2.output).toBe('second');
    // The second call sees the whole conversation.
    expect(model.requests[1]?.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
  });

  it('returns the stored result when resuming a finished invocation, without calling the model', async () => {
    const model = new ScriptedModel({ responses: ['the answer'] });
    const runner = new Runner({ agent: new ReActAgent({ name: 'a', model }), appName: 'x' });
    const first = await runner.run({ userId: 'u', sessionId: 's', input: 'q' }).result();
    const again = await runner.resume({ userId: 'u', sessionId: 's' }).result();
    expect(again).toMatchObject({ status: 'completed', output: 'the answer', invocationId: first.invocationId });
    expect(model.calls).toBe(1);
  });

  it('aborts promptly mid tool call, leaving a session that resumes without re-running finished work', async () => {
    let fastRuns = 0;
    let slowRuns = 0;
    const fast = tool({ name: 'fast', description: '', parameters: z.object({}), execute: () => (fastRuns++, 'fast done') });
    const slow = tool({
      name: 'slow',
      description: '',
      parameters: z.object({}),
      execute: async () => {
        slowRuns++;
        await sleep(slowRuns === 1 ? 10_000 : 1); // ignores the signal on purpose: the runner must not wait
        return 'slow done';
      },
    });
    const model = new ScriptedModel({ responses: [callTools({ name: 'fast', id: 'f' }, { name: 'slow', id: 's' }), 'all done'] });
    const runner = new Runner({ agent: new ReActAgent({ name: 'a', model, tools: [fast, slow] }), appName: 'x' });
    const controller = new AbortController();
    const started = Date.now();
    setTimeout(() => controller.abort(), 50);
    const aborted = await runner.run({ userId: 'u', sessionId: 's', input: 'go', signal: controller.signal }).result();
    expect(aborted.status).toBe('aborted');
    expect(aborted.error?.name).toBe('RunAbortedError');
    expect(Date.now() - started).toBeLessThan(5_000);

    const resumed = await runner.resume({ userId: 'u', sessionId: 's' }).result();
    expect(resumed.status).toBe('completed');
    expect(resumed.output).toBe('all done');
    expect(fastRuns).toBe(1); // its result was stored before the abort
    expect(slowRuns).toBe(2); // started but unfinished: run again
    expect(model.calls).toBe(2); // the tool-calling turn was not asked again
  });

  it('ends budget_exceeded on maxModelCalls and resumes with a new budget', async () => {
    const model = new ScriptedModel({
      responses: [callTools({ name: 'echo', args: { v: '1' } }), callTools({ name: 'echo', args: { v: '2' } }), 'end'],
    });
    const runner = new Runner({ agent: new ReActAgent({ name: 'a', model, tools: [echo] }), appName: 'x' });
    const r = await runner.run({ userId: 'u', sessionId: 's', input: 'go', limits: { maxModelCalls: 2 } }).result();
    expect(r.status).toBe('budget_exceeded');
    expect(r.error).toMatchObject({ name: 'BudgetExceededError', budget: 'maxModelCalls' });
    expect(model.calls).toBe(2);
    const resumed = await runner.resume({ userId: 'u', sessionId: 's' }).result();
    expect(resumed).toMatchObject({ status: 'completed', output: 'end' });
    expect(model.calls).toBe(3);
  });

  it('ends budget_exceeded on maxTokens; a model that counts more input than the estimate can cross by that much', async () => {
    // The model reports 60 input tokens for requests the budget estimates at a few: the second call
    // is made (its estimated input fits in the 40 left) with its output capped at what that leaves.
    const model = new ScriptedModel({
      respond: () => callTools({ name: 'echo', args: { v: 'x' } }),
      usage: { inputTokens: 60, outputTokens: 0 },
    });
    const runner = new Runner({ agent: new ReActAgent({ name: 'a', model, tools: [echo] }), appName: 'x' });
    const r = await runner.run({ userId: 'u', input: 'go', limits: { maxTokens: 100 } }).result();
    expect(r.status).toBe('budget_exceeded');
    expect(r.usage.inputTokens).toBe(120);
    expect(model.calls).toBe(2);
    expect(model.requests[0]?.settings?.maxTokens).toBeGreaterThan(50); // 100 − the first request's estimated input
    expect(model.requests[0]?.settings?.maxTokens).toBeLessThan(100);
    const second = model.requests[1]?.settings?.maxTokens ?? 0;
    expect(second).toBeGreaterThan(0);
    expect(second).toBeLessThan(40);
  });

  it('ends budget_exceeded when timeoutMs passes during a model call', async () => {
    const model = new ScriptedModel({ responses: ['late'], latencyMs: 5_000 });
    const runner = new Runner({ agent: new ReActAgent({ name: 'a', model }), appName: 'x' });
    const started = Date.now();
    const r = await runner.run({ userId: 'u', input: 'go', limits: { timeoutMs: 30 } }).result();
    expect(r.status).toBe('budget_exceeded');
    expect(r.error).toMatchObject({ budget: 'timeoutMs' });
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('stops at maxCost priced per model', async () => {
    const model = new ScriptedModel({
      id: 'm1',
      respond: () => callTools({ name: 'echo', args: { v: 'x' } }),
      usage: { inputTokens: 1_000_000, outputTokens: 0 },
    });
    const runner = new Runner({ agent: new ReActAgent({ name: 'a', model, tools: [echo] }), appName: 'x' });
    const r = await runner
      .run({ userId: 'u', input: 'go', limits: { maxCost: 2.5, prices: { m1: { inputPerMillion: 1, outputPerMillion: 4 } } } })
      .result();
    expect(r.status).toBe('budget_exceeded');
    expect(model.calls).toBe(3);
    // Each call's estimated input (a few tokens) fits in what is left; the model counts 1M (the estimate's error).
    expect(r.error).toMatchObject({ budget: 'maxCost', limit: 2.5, used: 3 });
    expect(r.cost).toBe(3);
  });

  it('lets exactly one of two concurrent resumes from two processes proceed; the other gets ConcurrentUpdateError', async () => {
    const store = new InMemorySessionStore();
    // Another process's view of the same data: a different store object, so only the stored
    // versions (the optimistic resume marker) can decide between the two runners.
    const otherProcess: SessionStore = {
      create: (s, e) => store.create(s, e),
      get: (k) => store.get(k),
      list: (i) => store.list(i),
      delete: (k) => store.delete(k),
      appendEvents: (k, e, o) => store.appendEvents(k, e, o),
    };
    const model = new ScriptedModel({ responses: [callTools({ name: 'echo', args: { v: 'a' } }), 'done'], latencyMs: 5 });
    const runnerA = new Runner({ agent: new ReActAgent({ name: 'a', model, tools: [echo] }), appName: 'x', sessionStore: store });
    const controller = new AbortController();
    controller.abort();
    await runnerA.run({ userId: 'u', sessionId: 's', input: 'go', signal: controller.signal }).result();
    const runnerB = new Runner({ agent: new ReActAgent({ name: 'a', model, tools: [echo] }), appName: 'x', sessionStore: otherProcess });
    const outcomes = await Promise.allSettled([
      runnerA.resume({ userId: 'u', sessionId: 's' }).result(),
      runnerB.resume({ userId: 'u', sessionId: 's' }).result(),
    ]);
    const ok = outcomes.filter((o) => o.status === 'fulfilled');
    const failed = outcomes.filter((o) => o.status === 'rejected') as PromiseRejectedResult[];
    expect(ok.length).toBe(1);
    expect(failed[0]?.reason).toBeInstanceOf(ConcurrentUpdateError);
    expect(failed[0]?.reason).not.toBeInstanceOf(SessionBusyError);
    expect((ok[0] as PromiseFulfilledResult<{ status: string }>).value.status).toBe('completed');
    expect(model.calls).toBe(2);
  });

  it('refuses a second run of a session already running in this process, before anything is written', async () => {
    const store = new InMemorySessionStore();
    const model = new ScriptedModel({ responses: ['slow answer', 'second answer'], latencyMs: 50 });
    const runner = new Runner({ agent: new ReActAgent({ name: 'a', model }), appName: 'x', sessionStore: store });
    const other = new Runner({ agent: new ReActAgent({ name: 'a', model }), appName: 'x', sessionStore: store });
    const first = runner.run({ userId: 'u', sessionId: 's', input: 'one' }).result();
    await expect(other.resume({ userId: 'u', sessionId: 's' }).result()).rejects.toBeInstanceOf(SessionBusyError);
    await expect(runner.run({ userId: 'u', sessionId: 's', input: 'two' }).result()).rejects.toThrow(/already running in this process/);
    expect((await first).status).toBe('completed');
    expect(model.calls).toBe(1);
    expect((await store.get({ appName: 'x', userId: 'u', id: 's' }))?.events.filter((e) => e.author === 'user').length).toBe(1);
    // once it has finished, the session is free again
    expect((await runner.run({ userId: 'u', sessionId: 's', input: 'two' }).result()).output).toBe('second answer');
  });

  it('fails an invocation whose session was changed underneath with ConcurrentUpdateError, writing nothing more', async () => {
    const store = new InMemorySessionStore();
    const intruder = tool({
      name: 'intrude',
      description: '',
      parameters: z.object({}),
      execute: async () => {
        const s = await store.get({ appName: 'x', userId: 'u', id: 's' });
        await store.appendEvents(
          { appName: 'x', userId: 'u', id: 's' },
          [{ id: 'other', invocationId: 'z', author: 'user', path: 'user', timestamp: 1 }],
          { expectedVersion: s!.version },
        );
        return 'ok';
      },
    });
    const model = new ScriptedModel({ responses: [callTools({ name: 'intrude' }), 'done'] });
    const runner = new Runner({ agent: new ReActAgent({ name: 'a', model, tools: [intruder] }), appName: 'x', sessionStore: store });
    const r = await runner.run({ userId: 'u', sessionId: 's', input: 'go' }).result();
    expect(r.status).toBe('failed');
    expect(r.error).toBeInstanceOf(ConcurrentUpdateError);
    const s = await store.get({ appName: 'x', userId: 'u', id: 's' });
    expect(s?.events.at(-1)?.id).toBe('other');
  });
});
