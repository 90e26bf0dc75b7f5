import { describe, expect, it } from 'vitest';
import { BudgetExceededError, ModelCallError, ReActAgent, RunAbortedError, type ChatModel, type ModelResponse } from '@replan/core';
import { callModel, InvocationContext, RunBudget, streamModelCall, type ModelStreamPart } from '@replan/core/agent-kit';
import { ScriptedModel } from '@replan/core/testing';
import type { LifecycleInfo, RunLifecycleEvent } from '@replan/core';
import { ObserverHub } from '../src/observe/observer-hub.js';
import { RunObservation } from '../src/observe/run-observation.js';

const usage = { inputTokens: 10, outputTokens: 5 };

function context(options: { streaming?: boolean; budget?: RunBudget; signal?: AbortSignal; observation?: RunObservation } = {}) {
  let seq = 0;
  const services: InvocationContext['services'] = {
    invocationId: 'inv',
    session: { appName: 'a', userId: 'u', id: 's', events: [], state: {}, version: 0 },
    signal: options.signal ?? new AbortController().signal,
    streaming: options.streaming ?? false,
    budget: options.budget ?? new RunBudget(),
    ...(options.observation ? { observation: options.observation } : {}),
    resumeValues: new Map(),
    interruptIds: new Set(),
    newId: () => `id${++seq}`,
  };
  const agent = new ReActAgent({ name: 'caller', model: new ScriptedModel() });
  return new InvocationContext(services, agent, 'root/caller', undefined, 0);
}

/** A model whose stream plays `parts` (and then throws `error`, if given); `closed` tells whether the stream was closed. */
function streamingModel(parts: ModelStreamPart[], error?: Error) {
  const state = { closed: false, streams: 0 };
  const model: ChatModel = {
    id: 'm',
    generate: () => Promise.reject(new Error('not used')),
    async *stream() {
      state.streams++;
      try {
        for (const part of parts) yield part;
        if (error) throw error;
      } finally {
        state.closed = true;
      }
    },
  };
  return { model, state };
}

const finish = (text: string): ModelStreamPart => ({
  type: 'finish',
  response: { message: { role: 'assistant', content: [{ type: 'text', text }] }, finishReason: 'stop', usage } satisfies ModelResponse,
});

async function drain<T, R>(gen: AsyncGenerator<T, R>): Promise<{ items: T[]; value: R }> {
  const items: T[] = [];
  let next = await gen.next();
  for (; !next.done; next = await gen.next()) items.push(next.value);
  return { items, value: next.value };
}

describe('streamModelCall (the one model-call primitive)', () => {
  it('yields every part but finish, returns the whole response and records usage once', async () => {
    const budget = new RunBudget();
    const { model } = streamingModel([{ type: 'reasoning-delta', delta: 'hm' }, { type: 'text-delta', delta: 'hi' }, finish('hi')]);
    const { items, value } = await drain(streamModelCall(context({ budget }), model, { messages: [] }));
    expect(items.map((p) => p.type)).toEqual(['reasoning-delta', 'text-delta']);
    expect(value.message.content).toEqual([{ type: 'text', text: 'hi' }]);
    expect(budget.modelCalls).toBe(1);
    expect(budget.usage).toMatchObject(usage);
  });

  it('checks the budget before calling the model', async () => {
    const budget = new RunBudget({ maxModelCalls: 0 });
    const { model, state } = streamingModel([finish('never')]);
    await expect(drain(streamModelCall(context({ budget }), model, { messages: [] }))).rejects.toBeInstanceOf(BudgetExceededError);
    expect(state.streams).toBe(0);
  });

  it("turns the model's failure, or a stream without a finish part, into ModelCallError naming the agent", async () => {
    const failing = streamingModel([{ type: 'text-delta', delta: 'a' }], new Error('socket hang up'));
    const error = await drain(streamModelCall(context(), failing.model, { messages: [] })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelCallError);
    expect(String((error as Error).message)).toMatch(/caller/);
    const unfinished = streamingModel([{ type: 'text-delta', delta: 'a' }]);
    await expect(drain(streamModelCall(context(), unfinished.model, { messages: [] }))).rejects.toThrow(/without a finish part/);
  });

  it("reports the abort's error, not a model failure, when the signal fired", async () => {
    const controller = new AbortController();
    controller.abort();
    const { model } = streamingModel([finish('never')]);
    await expect(drain(streamModelCall(context({ signal: controller.signal }), model, { messages: [] }))).rejects.toBeInstanceOf(
      RunAbortedError,
    );
  });

  it("closes the model's stream when its caller stops early, and records no usage", async () => {
    const budget = new RunBudget();
    const { model, state } = streamingModel([{ type: 'text-delta', delta: 'a' }, { type: 'text-delta', delta: 'b' }, finish('ab')]);
    const gen = streamModelCall(context({ budget }), model, { messages: [] });
    await gen.next();
    await gen.return(undefined as never);
    expect(state.closed).toBe(true);
    expect(budget.usage.inputTokens).toBe(0);
  });
});

describe('callModel (built on streamModelCall)', () => {
  it('when streaming, yields text and reasoning deltas as partial events and returns the response', async () => {
    const budget = new RunBudget();
    const { model } = streamingModel([{ type: 'reasoning-delta', delta: 'hm' }, { type: 'text-delta', delta: 'hi' }, finish('hi')]);
    const { items, value } = await drain(callModel(context({ streaming: true, budget }), model, { messages: [] }));
    expect(items.every((e) => e.partial === true && e.path === 'root/caller')).toBe(true);
    expect(items.map((e) => e.message?.content[0]?.type)).toEqual(['reasoning', 'text']);
    expect(value.finishReason).toBe('stop');
    expect(budget.usage).toMatchObject(usage);
  });

  it('without streaming, makes one generate call under the same rules', async () => {
    const budget = new RunBudget({ maxModelCalls: 1 });
    const model = new ScriptedModel({ responses: ['one', 'two'], usage });
    const ctx = context({ budget });
    const { items, value } = await drain(callModel(ctx, model, { messages: [] }));
    expect(items).toEqual([]);
    expect(value.message.content).toEqual([{ type: 'text', text: 'one' }]);
    expect(budget.usage).toMatchObject(usage);
    await expect(drain(callModel(ctx, model, { messages: [] }))).rejects.toBeInstanceOf(BudgetExceededError);
    expect(model.calls).toBe(1);
  });
});

describe('model calls seen by observers', () => {
  /** A context whose observation records every lifecycle event. */
  function observed() {
    const events: RunLifecycleEvent[] = [];
    const hub = new ObserverHub([{ onModelCallStart: (e) => void events.push(e), onModelCallEnd: (e) => void events.push(e) }]);
    const labels = { appName: 'a', userId: 'u', sessionId: 's', invocationId: 'inv' };
    const budget = new RunBudget();
    const ctx = context({ budget, observation: new RunObservation(hub, labels, () => 0) });
    const ends = () => events.filter((e): e is LifecycleInfo<'model-call-end'> => e.kind === 'model-call-end');
    return { ctx, budget, events, ends };
  }

  it('report a streamed call that completes once, with its response', async () => {
    const { ctx, events, ends } = observed();
    const { model } = streamingModel([{ type: 'text-delta', delta: 'hi' }, finish('hi')]);
    await drain(streamModelCall(ctx, model, { messages: [] }));
    expect(events.map((e) => e.kind)).toEqual(['model-call-start', 'model-call-end']);
    expect(ends()[0]?.usage).toEqual(usage);
    expect(ends()[0]?.error).toBeUndefined();
  });

  it('report a caller that stops before the finish part once, as an error, with no usage', async () => {
    const { ctx, budget, ends } = observed();
    const { model } = streamingModel([{ type: 'text-delta', delta: 'a' }, { type: 'text-delta', delta: 'b' }, finish('ab')]);
    const gen = streamModelCall(ctx, model, { messages: [] });
    await gen.next();
    await gen.return(undefined as never);
    expect(ends()).toHaveLength(1);
    expect(ends()[0]?.error?.message).toMatch(/stopped reading/);
    expect(budget.modelCalls).toBe(1);
    expect(budget.usage.inputTokens).toBe(0);
  });

  it('count a call whose caller stops after the finish part: its usage is recorded and it ends once', async () => {
    const { ctx, budget, ends } = observed();
    // A part after `finish`: the caller may stop there, after the model has answered.
    const { model, state } = streamingModel([finish('done'), { type: 'text-delta', delta: 'late' }]);
    const gen = streamModelCall(ctx, model, { messages: [] });
    expect((await gen.next()).value).toEqual({ type: 'text-delta', delta: 'late' });
    await gen.return(undefined as never);
    expect(ends()).toHaveLength(1);
    expect(ends()[0]?.error).toBeUndefined();
    expect(ends()[0]?.usage).toEqual(usage);
    expect(budget.usage).toMatchObject(usage);
    expect(state.closed).toBe(true);
  });

  it('report a failing stream and a stream without a finish part once each, with the ModelCallError', async () => {
    for (const error of [new Error('socket closed'), undefined]) {
      const { ctx, ends } = observed();
      const { model } = streamingModel([{ type: 'text-delta', delta: 'x' }], error);
      await expect(drain(streamModelCall(ctx, model, { messages: [] }))).rejects.toBeInstanceOf(ModelCallError);
      expect(ends()).toHaveLength(1);
      expect(ends()[0]?.error).toBeInstanceOf(ModelCallError);
    }
  });
});

describe('the calling agent reaches the model', () => {
  it('callModel passes the agent name and path to generate', async () => {
    const model = new ScriptedModel({ responses: ['hi'] });
    const parts = callModel(context(), model, { messages: [{ role: 'user', content: [{ type: 'text', text: 'q' }] }] });
    for (let next = await parts.next(); !next.done; next = await parts.next());
    expect(model.callers).toEqual([
      { name: 'caller', path: 'root/caller', run: { sessionId: expect.any(String), invocationId: expect.any(String) } },
    ]);
  });

  it('a work label (ctx.withLabel) reaches the model as it was given, and its children inherit it', async () => {
    const model = new ScriptedModel({ responses: ['hi'] });
    const labelled = context().withLabel({ id: 's1', text: 'find a flight' });
    const parts = callModel(labelled, model, { messages: [{ role: 'user', content: [{ type: 'text', text: 'q' }] }] });
    for (let next = await parts.next(); !next.done; next = await parts.next());
    expect(model.callers[0]?.label).toEqual({ id: 's1', text: 'find a flight' });
    expect(labelled.child(labelled.agent).label).toEqual({ id: 's1', text: 'find a flight' });
  });

  it('streamModelCall passes the agent name and path to stream', async () => {
    const model = new ScriptedModel({ responses: ['hi'] });
    const parts = streamModelCall(context({ streaming: true }), model, {
      messages: [{ role: 'user', content: [{ type: 'text', text: 'q' }] }],
    });
    for (let next = await parts.next(); !next.done; next = await parts.next());
    expect(model.callers).toEqual([
      { name: 'caller', path: 'root/caller', run: { sessionId: expect.any(String), invocationId: expect.any(String) } },
    ]);
  });
});
