import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import {
  InMemorySessionStore,
  ReActAgent,
  type Agent,
  Runner,
  SequentialAgent,
  tool,
  type RunLifecycleEvent,
  type RunObserver,
} from '@replan/core';
import { ScriptedModel, callTools } from '@replan/core/testing';
import { collect } from './support.js';

const echo = tool({ name: 'echo', description: 'echoes', parameters: z.object({ v: z.string() }), execute: ({ v }) => v });
const broken = tool({
  name: 'broken',
  description: 'fails',
  parameters: z.object({}),
  execute: () => {
    throw new Error('disk full');
  },
});
const approve = tool({ name: 'send', description: 'needs approval', parameters: z.object({}), needsApproval: true, execute: () => 'sent' });

/** Records every lifecycle event by kind. */
function recorder(): RunObserver & { events: RunLifecycleEvent[] } {
  const events: RunLifecycleEvent[] = [];
  const push = (e: RunLifecycleEvent) => void events.push(e);
  return {
    events,
    onRunStart: push,
    onRunEnd: push,
    onAgentStart: push,
    onAgentEnd: push,
    onModelCallStart: push,
    onModelCallEnd: push,
    onToolCallStart: push,
    onToolCallEnd: push,
    onInterrupt: push,
    onResume: push,
  };
}

describe('run observers', () => {
  it('see runs, nested agents, model and tool calls in order, with usage, latency and errors', async () => {
    const model = new ScriptedModel({
      id: 'm',
      responses: [callTools({ name: 'echo', args: { v: 'x' } }, { name: 'broken', args: {} }), 'done'],
    });
    const inner = new ReActAgent({ name: 'worker', model, tools: [echo, broken] });
    const obs = recorder();
    const runner = new Runner({ agent: new SequentialAgent({ name: 'root', subAgents: [inner] }), appName: 'x', observers: [obs] });
    const { result } = await collect(runner.run({ userId: 'u', sessionId: 's1', input: 'go' }));
    expect(result.status).toBe('completed');
    const kinds = obs.events.map((e) => e.kind);
    expect(kinds[0]).toBe('run-start');
    expect(kinds.at(-1)).toBe('run-end');
    const starts = obs.events.filter((e) => e.kind === 'agent-start');
    expect(starts.map((e) => [e.path, e.parentAgentRunId === undefined])).toEqual([
      ['root', true],
      ['root/worker', false],
    ]);
    expect(starts[1]?.parentAgentRunId).toBe(starts[0]?.agentRunId);
    const modelEnds = obs.events.filter((e) => e.kind === 'model-call-end');
    expect(modelEnds).toHaveLength(2);
    expect(modelEnds.map((e) => [e.model, e.path, e.finishReason, e.agentRunId])).toEqual([
      ['m', 'root/worker', 'tool_calls', starts[1]?.agentRunId],
      ['m', 'root/worker', 'stop', starts[1]?.agentRunId],
    ]);
    expect(modelEnds[0]?.usage).toEqual({ inputTokens: 10, outputTokens: 5 });
    expect(modelEnds[0]?.requestSize().estimatedInputTokens).toBe(Math.ceil(modelEnds[0]!.requestSize().chars / 4));
    expect(modelEnds[0]?.requestSize().chars).toBeGreaterThan(2); // 'go' plus the tool specs
    const toolEnds = obs.events.filter((e) => e.kind === 'tool-call-end');
    expect(toolEnds.map((e) => [e.toolName, e.isError])).toEqual(
      expect.arrayContaining([
        ['echo', false],
        ['broken', true],
      ]),
    );
    const end = obs.events.at(-1);
    expect(end?.kind === 'run-end' && end.usage).toEqual(result.usage);
    expect(end?.kind === 'run-end' && end.status).toBe('completed');
  });

  it('report a sub-agent that is stopped early, or whose run() throws before its first event, as ended', async () => {
    const { runAgent } = await import('@replan/core/agent-kit');
    const talker: Agent = {
      name: 'talker',
      description: 'says two things',
      async *run(ctx) {
        yield ctx.event({ message: { role: 'assistant', content: [{ type: 'text', text: 'one' }] } });
        yield ctx.event({ message: { role: 'assistant', content: [{ type: 'text', text: 'two' }] } });
      },
    };
    const thrower: Agent = {
      name: 'thrower',
      description: 'fails before it starts',
      run() {
        throw new Error('no generator today');
      },
    };
    const never: Agent = { name: 'never', description: 'never pulled', run: () => ({}) as never };
    const root: Agent = {
      name: 'root',
      description: 'takes the first event of talker, then tries thrower',
      subAgents: [talker, thrower, never],
      async *run(ctx) {
        runAgent(ctx.child(never)); // made but never pulled: never reported
        for await (const event of runAgent(ctx.child(talker))) {
          yield event;
          break; // closes talker's run early
        }
        yield* runAgent(ctx.child(thrower));
      },
    };
    const obs = recorder();
    const { result } = await collect(new Runner({ agent: root, appName: 'x', observers: [obs] }).run({ userId: 'u', input: 'go' }));
    expect(result.status).toBe('failed');
    const agentEvents = obs.events.flatMap((e) =>
      e.kind === 'agent-start' || e.kind === 'agent-end' ? [[e.kind, e.path, e.kind === 'agent-end' ? e.error?.message : undefined]] : [],
    );
    expect(agentEvents).toEqual([
      ['agent-start', 'root', undefined],
      ['agent-start', 'root/talker', undefined],
      ['agent-end', 'root/talker', undefined],
      ['agent-start', 'root/thrower', undefined],
      ['agent-end', 'root/thrower', 'no generator today'],
      ['agent-end', 'root', 'no generator today'],
    ]);
  });

  it('report an interrupt, then a resume in another runner that carries what the first run kept', async () => {
    const model = new ScriptedModel({ responses: [callTools({ name: 'send', args: {} }), 'ok'] });
    const agent = new ReActAgent({ name: 'a', model, tools: [approve] });
    const first = recorder();
    const keep: RunObserver = { carry: () => ({ traceparent: 'tp-1' }) };
    const runner = new Runner({ agent, appName: 'x', observers: [first, keep] });
    const r1 = await runner.run({ userId: 'u', sessionId: 's', input: 'go' }).result();
    expect(r1.status).toBe('interrupted');
    expect(first.events.map((e) => e.kind).slice(-2)).toEqual(['interrupt', 'run-end']);

    const second = recorder();
    const other = new Runner({ agent, appName: 'x', sessionStore: runner.sessionStore, observers: [second] });
    const r2 = await other.resume({ userId: 'u', sessionId: 's', values: { [r1.interrupts[0]!.id]: true } }).result();
    expect(r2.status).toBe('completed');
    const start = second.events[0];
    expect(start?.kind === 'run-start' && [start.resumed, start.carried]).toEqual([true, { traceparent: 'tp-1' }]);
    expect(second.events[1]?.kind).toBe('resume');
  });

  it('report a failing model call, the agents it unwinds and the failed run, with the error', async () => {
    const model = new ScriptedModel({ id: 'm', responses: [new Error('503 from upstream')] });
    const obs = recorder();
    const runner = new Runner({
      agent: new SequentialAgent({ name: 'root', subAgents: [new ReActAgent({ name: 'w', model })] }),
      appName: 'x',
      observers: [obs],
    });
    const result = await runner.run({ userId: 'u', input: 'go' }).result();
    expect(result.status).toBe('failed');
    const modelEnd = obs.events.find((e) => e.kind === 'model-call-end');
    expect(modelEnd?.kind === 'model-call-end' && [modelEnd.error?.name, modelEnd.usage, modelEnd.cost]).toEqual([
      'ModelCallError',
      undefined,
      0,
    ]);
    const agentEnds = obs.events.filter((e) => e.kind === 'agent-end');
    expect(agentEnds.map((e) => [e.path, e.error?.name])).toEqual([
      ['root/w', 'ModelCallError'],
      ['root', 'ModelCallError'],
    ]);
    const end = obs.events.at(-1);
    expect(end?.kind === 'run-end' && [end.status, end.error?.name, end.result?.status]).toEqual(['failed', 'ModelCallError', 'failed']);
  });

  it('report a run whose input could not be stored as started and failed; result() rejects as before', async () => {
    const store = new InMemorySessionStore();
    store.create = () => Promise.reject(new Error('disk unavailable'));
    const obs = recorder();
    const runner = new Runner({
      agent: new ReActAgent({ name: 'a', model: new ScriptedModel({ responses: ['x'] }) }),
      appName: 'x',
      sessionStore: store,
      observers: [obs],
    });
    await expect(runner.run({ userId: 'u', input: 'go' }).result()).rejects.toThrow('disk unavailable');
    expect(obs.events.map((e) => e.kind)).toEqual(['run-start', 'run-end']);
    const end = obs.events[1];
    expect(end?.kind === 'run-end' && [end.status, end.error?.message, end.result]).toEqual(['failed', 'disk unavailable', undefined]);
  });

  it('with no observer registered, agents see no observation (nothing is reported or built)', async () => {
    let seen: unknown = 'unset';
    const probe = {
      name: 'probe',
      description: '',
      async *run(ctx: import('@replan/core').InvocationContext) {
        seen = ctx.services.observation;
        yield* [];
      },
    };
    await new Runner({ agent: probe, appName: 'x' }).run({ userId: 'u', input: 'go' }).result();
    expect(seen).toBeUndefined();
    await new Runner({ agent: probe, appName: 'x', observers: [] }).run({ userId: 'u', input: 'go' }).result();
    expect(seen).toBeUndefined();
    await new Runner({ agent: probe, appName: 'x', observers: [{}] }).run({ userId: 'u', input: 'go' }).result();
    expect(seen).toBeDefined();
  });

  it('a throwing observer is reported once, ignored afterwards, and the run is unchanged', async () => {
    const model = new ScriptedModel({ responses: [callTools({ name: 'echo', args: { v: 'x' } }), 'done'] });
    const bad: RunObserver = {
      onModelCallStart: vi.fn(() => {
        throw new Error('observer bug');
      }),
      onToolCallStart: vi.fn(),
    };
    const onObserverError = vi.fn();
    const good = recorder();
    const runner = new Runner({
      agent: new ReActAgent({ name: 'a', model, tools: [echo] }),
      appName: 'x',
      observers: [bad, good],
      onObserverError,
    });
    const result = await runner.run({ userId: 'u', input: 'go' }).result();
    expect(result.status).toBe('completed');
    expect(result.output).toBe('done');
    expect(onObserverError).toHaveBeenCalledTimes(1);
    expect(onObserverError.mock.calls[0]?.[0]).toMatchObject({ message: 'observer bug' });
    expect(bad.onModelCallStart).toHaveBeenCalledTimes(1);
    expect(bad.onToolCallStart).not.toHaveBeenCalled();
    expect(good.events.filter((e) => e.kind === 'model-call-end')).toHaveLength(2);
  });

  it('a rejected promise from an observer is reported once too', async () => {
    const onObserverError = vi.fn();
    const bad: RunObserver = { onAgentStart: (() => Promise.reject(new Error('async bug'))) as unknown as () => void };
    const runner = new Runner({
      agent: new ReActAgent({ name: 'a', model: new ScriptedModel({ responses: ['hi'] }) }),
      appName: 'x',
      observers: [bad],
      onObserverError,
    });
    expect((await runner.run({ userId: 'u', input: 'go' }).result()).output).toBe('hi');
    await new Promise((r) => setTimeout(r, 0));
    expect(onObserverError).toHaveBeenCalledTimes(1);
  });
});

describe('usage and cost', () => {
  const prices = { m: { inputPerMillion: 2, outputPerMillion: 10, cachedInputPerMillion: 0.5 } };

  it('prices each call with the runner prices (cached input at its own price) and breaks usage down by agent', async () => {
    const usage = { inputTokens: 1_000, outputTokens: 200, cachedTokens: 400 };
    const model = new ScriptedModel({ id: 'm', responses: [callTools({ name: 'echo', args: { v: 'x' } }), 'done'], usage });
    const runner = new Runner({ agent: new ReActAgent({ name: 'a', model, tools: [echo] }), appName: 'x', prices });
    const result = await runner.run({ userId: 'u', input: 'go' }).result();
    // (600 × 2 + 400 × 0.5 + 200 × 10) / 1e6 = 0.0034 per call
    expect(result.cost).toBeCloseTo(0.0068, 12);
    expect(result.breakdown.byAgent.a).toMatchObject({
      modelCalls: 2,
      usage: { inputTokens: 2_000, outputTokens: 400, cachedTokens: 800 },
    });
    expect(result.breakdown.byAgent.a?.cost).toBeCloseTo(0.0068, 12);
    expect(result.breakdown.byLabel).toEqual({});
  });

  it('limits.prices overrides the runner prices model by model', async () => {
    const model = new ScriptedModel({ id: 'm', responses: ['done'], usage: { inputTokens: 1_000_000, outputTokens: 0 } });
    const runner = new Runner({ agent: new ReActAgent({ name: 'a', model }), appName: 'x', prices });
    const result = await runner
      .run({ userId: 'u', input: 'go', limits: { prices: { m: { inputPerMillion: 7, outputPerMillion: 0 } } } })
      .result();
    expect(result.cost).toBe(7);
  });

  it('maxCost refuses a call whose estimated request would pass the budget, before making it', async () => {
    // 1 per million input tokens; each call costs exactly 1 (a million tokens), the budget is 2.5.
    const model = new ScriptedModel({
      id: 'm',
      respond: () => callTools({ name: 'echo', args: { v: 'x' } }),
      usage: { inputTokens: 1_000_000, outputTokens: 0 },
    });
    const runner = new Runner({
      agent: new ReActAgent({ name: 'a', model, tools: [echo] }),
      appName: 'x',
      prices: { m: { inputPerMillion: 1, outputPerMillion: 0 } },
    });
    const result = await runner.run({ userId: 'u', input: 'go', limits: { maxCost: 2.5 } }).result();
    expect(result.status).toBe('budget_exceeded');
    expect(model.calls).toBe(3);
    expect(result.cost).toBe(3);

    // Same budget, but the request alone is estimated above what is left: the call is not made.
    const big = 'x'.repeat(4 * 600_000); // ≈ 600k tokens ≈ 0.6 at 1 per million
    const model2 = new ScriptedModel({
      id: 'm',
      respond: () => callTools({ name: 'echo', args: { v: 'x' } }),
      usage: { inputTokens: 1_000_000, outputTokens: 0 },
    });
    const runner2 = new Runner({
      agent: new ReActAgent({ name: 'a', model: model2, tools: [echo] }),
      appName: 'x',
      prices: { m: { inputPerMillion: 1, outputPerMillion: 0 } },
    });
    const r2 = await runner2.run({ userId: 'u', input: big, limits: { maxCost: 2.5 } }).result();
    expect(r2.status).toBe('budget_exceeded');
    expect(model2.calls).toBe(2); // 2 spent + ≈0.6 estimated > 2.5: the third call is refused
    expect(r2.error).toMatchObject({ budget: 'maxCost' });
  });

  it('session totals include the calls of earlier runs in other runners', async () => {
    const model = new ScriptedModel({ id: 'm', responses: [callTools({ name: 'send', args: {} }), 'ok'] });
    const agent = new ReActAgent({ name: 'a', model, tools: [approve] });
    const runner = new Runner({ agent, appName: 'x', prices });
    const r1 = await runner.run({ userId: 'u', sessionId: 's', input: 'go' }).result();
    const other = new Runner({ agent, appName: 'x', sessionStore: runner.sessionStore, prices });
    const r2 = await other.resume({ userId: 'u', sessionId: 's', values: { [r1.interrupts[0]!.id]: true } }).result();
    expect(r2.usage).toEqual({ inputTokens: 10, outputTokens: 5 });
    expect(r2.session).toMatchObject({ usage: { inputTokens: 20, outputTokens: 10 }, modelCalls: 2, unpricedModelCalls: 0 });
  });
});
