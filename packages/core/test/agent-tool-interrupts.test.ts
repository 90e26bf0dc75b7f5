import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ReActAgent, Runner, agentTool, messageText, tool, toolResultsOf, type RunLifecycleEvent, type RunObserver } from '@replan/core';
import { childSessionId } from '@replan/core/agent-kit';
import { ScriptedModel, callTools } from '@replan/core/testing';
import { collect } from './support.js';
import { publishCall, researchCall, world } from './support/agent-tool-world.js';

describe('agentTool: interrupts inside the nested agent', () => {
  it("observers hear the inner question once, as the outer run's interrupt, and the child run resumed under its tool call", async () => {
    const events: RunLifecycleEvent[] = [];
    const push = (e: RunLifecycleEvent) => void events.push(e);
    const observer: RunObserver = { onRunStart: push, onRunEnd: push, onInterrupt: push, onResume: push };
    const outer = new ScriptedModel({ responses: [researchCall(), 'outer final'] });
    const inner = new ScriptedModel({ responses: [publishCall(), 'inner published'] });
    const { runner } = world({ outer, inner }, undefined, [observer]);
    const first = await collect(runner.run({ userId: 'u', sessionId: 's', input: 'go' }));
    const interrupts = events.filter((e) => e.kind === 'interrupt');
    expect(interrupts.map((e) => [e.sessionId, e.interrupts.map((i) => i.id)])).toEqual([['s', ['o1/a1:approval']]]);
    events.length = 0;
    await collect(runner.resume({ userId: 'u', sessionId: 's', values: { 'o1/a1:approval': true } }));
    const childId = childSessionId('s', first.result.invocationId, 'o1');
    expect(events.map((e) => [e.kind, e.sessionId, e.kind === 'run-start' ? e.resumed : e.kind === 'run-end' ? e.status : ''])).toEqual([
      ['run-start', 's', true],
      ['resume', 's', ''],
      ['run-start', childId, true],
      ['run-end', childId, 'completed'],
      ['run-end', 's', 'completed'],
    ]);
  });

  it('an approval inside is surfaced on the outer run, attributed to the inner agent, and resumes once', async () => {
    const outer = new ScriptedModel({ responses: [researchCall(), 'outer final'] });
    const inner = new ScriptedModel({ responses: [publishCall(), 'inner published'] });
    const { ran, runner, store } = world({ outer, inner });
    const first = await collect(runner.run({ userId: 'u', sessionId: 's', input: 'go' }));
    expect(first.result.status).toBe('interrupted');
    expect(first.result.interrupts).toEqual([
      {
        id: 'o1/a1:approval',
        reason: 'approval',
        payload: { tool: 'publish', args: { title: 'Tides' } },
        toolCallId: 'a1',
        toolName: 'publish',
        path: 'root/research/researcher',
      },
    ]);
    expect([ran.publish, outer.calls, inner.calls]).toEqual([[], 1, 1]);
    // The outer log holds the nested interrupt (on the caller's path, linked to the child session).
    const parent = await store.get({ appName: 'nest', userId: 'u', id: 's' });
    const stored = parent?.events.find((e) => e.actions?.interrupt);
    expect(stored?.path).toBe('root');
    expect(stored?.meta?.childSessionId).toBe(childSessionId('s', first.result.invocationId, 'o1'));
    // The stream showed the inner turn under its nested path, and the interrupt once, with the nested id.
    expect(first.events.filter((e) => e.actions?.interrupt).map((e) => e.actions?.interrupt?.id)).toEqual(['o1/a1:approval']);
    expect(first.events.some((e) => e.path === 'root/research/researcher' && e.message?.role === 'assistant')).toBe(true);

    const idle = await collect(runner.resume({ userId: 'u', sessionId: 's' }));
    expect(idle.result.status).toBe('interrupted');
    expect(idle.result.interrupts.map((i) => i.id)).toEqual(['o1/a1:approval']);

    const second = await collect(runner.resume({ userId: 'u', sessionId: 's', values: { 'o1/a1:approval': true } }));
    expect(second.result.status).toBe('completed');
    expect(second.result.output).toBe('outer final');
    expect([ran.publish, outer.calls, inner.calls]).toEqual([['Tides'], 2, 2]);
    expect(toolResultsOf(inner.requests[1]?.messages.at(-1))[0]?.output).toBe('published Tides');
    expect(toolResultsOf(outer.requests[1]?.messages.at(-1))[0]?.output).toBe('inner published');
    expect(second.result.modelCalls).toBe(2); // one inner, one outer: nothing finished was asked again
    // Across both runs and both sessions (parent and child): 2 outer and 2 inner calls.
    expect(second.result.session.modelCalls).toBe(4);
    expect(second.events.filter((e) => e.path === 'root/research/researcher').length).toBeGreaterThan(0);

    const again = await collect(runner.resume({ userId: 'u', sessionId: 's' }));
    expect(again.result).toMatchObject({ status: 'completed', output: 'outer final' });
    expect(again.result.session.modelCalls).toBe(4);
    expect([ran.publish.length, outer.calls, inner.calls]).toEqual([1, 2, 2]);
  });

  it('a rejection reaches the inner agent: the inner tool never runs and its model is told', async () => {
    const outer = new ScriptedModel({ responses: [researchCall(), 'outer final'] });
    const inner = new ScriptedModel({ responses: [publishCall(), 'not published'] });
    const { ran, runner } = world({ outer, inner });
    await collect(runner.run({ userId: 'u', sessionId: 's', input: 'go' }));
    const done = await collect(
      runner.resume({ userId: 'u', sessionId: 's', values: { 'o1/a1:approval': { approved: false, message: 'not today' } } }),
    );
    expect(done.result.status).toBe('completed');
    expect(ran.publish).toEqual([]);
    const rejected = toolResultsOf(inner.requests[1]?.messages.at(-1))[0];
    expect(rejected).toMatchObject({ toolCallId: 'a1', isError: true });
    expect(String(rejected?.output)).toMatch(/rejected.*not today/);
  });

  it('each answer reaches the agent that asked: outer and inner interrupts with the same call id stay apart', async () => {
    const outer = new ScriptedModel({
      responses: [
        callTools({ name: 'research', args: { input: 'post' }, id: 'o1' }, { name: 'outer_delete', args: {}, id: 'a1' }),
        'outer final',
      ],
    });
    const inner = new ScriptedModel({ responses: [publishCall(), 'inner published'] });
    const { ran, runner } = world({ outer, inner });
    const first = await collect(runner.run({ userId: 'u', sessionId: 's', input: 'go' }));
    expect(first.result.interrupts.map((i) => [i.id, i.path])).toEqual(
      expect.arrayContaining([
        ['a1:approval', 'root'],
        ['o1/a1:approval', 'root/research/researcher'],
      ]),
    );
    expect(first.result.interrupts).toHaveLength(2);

    // The outer tool's answer does not reach the inner agent, although the inner call id is the same.
    const second = await collect(runner.resume({ userId: 'u', sessionId: 's', values: { 'a1:approval': true } }));
    expect(second.result.status).toBe('interrupted');
    expect(second.result.interrupts.map((i) => i.id)).toEqual(['o1/a1:approval']);
    expect([ran.publish, ran.outerDelete, inner.calls, outer.calls]).toEqual([[], 1, 1, 1]);

    // The nested answer reaches the inner agent only: the outer tool does not run again.
    const third = await collect(runner.resume({ userId: 'u', sessionId: 's', values: { 'o1/a1:approval': true } }));
    expect(third.result.status).toBe('completed');
    expect([ran.publish, ran.outerDelete, inner.calls, outer.calls]).toEqual([['Tides'], 1, 2, 2]);
  });

  it('ctx.interrupt in a nested tool: the nested id carries the inner id, the answer reaches the inner tool', async () => {
    const outer = new ScriptedModel({ responses: [researchCall(), 'outer final'] });
    const inner = new ScriptedModel({
      responses: [callTools({ name: 'ask', args: { question: 'Which title?' }, id: 'q1' }), 'inner done'],
    });
    const { ran, runner } = world({ outer, inner });
    const first = await collect(runner.run({ userId: 'u', sessionId: 's', input: 'go' }));
    expect(first.result.interrupts).toEqual([
      expect.objectContaining({
        id: 'o1/q1:1',
        reason: 'question',
        payload: { question: 'Which title?' },
        path: 'root/research/researcher',
      }),
    ]);
    const done = await collect(runner.resume({ userId: 'u', sessionId: 's', values: { 'o1/q1:1': 'Tides' } }));
    expect(done.result.status).toBe('completed');
    expect(ran.ask).toEqual(['Tides']);
  });

  it('parallel nested agents interrupted at once are answered one by one, each exactly once', async () => {
    const outer = new ScriptedModel({
      responses: [
        callTools({ name: 'research', args: { input: 'a' }, id: 'o1' }, { name: 'research', args: { input: 'b' }, id: 'o2' }),
        'both',
      ],
    });
    const inner = new ScriptedModel({
      respond: (req) =>
        toolResultsOf(req.messages.at(-1)).length
          ? `done ${messageText(req.messages[0])}`
          : callTools({ name: 'publish', args: { title: messageText(req.messages[0]) }, id: 'a1' }),
    });
    const { ran, runner } = world({ outer, inner });
    const first = await collect(runner.run({ userId: 'u', sessionId: 's', input: 'go' }));
    expect(first.result.interrupts.map((i) => i.id).sort()).toEqual(['o1/a1:approval', 'o2/a1:approval']);
    const second = await collect(runner.resume({ userId: 'u', sessionId: 's', values: { 'o2/a1:approval': true } }));
    expect(second.result.interrupts.map((i) => i.id)).toEqual(['o1/a1:approval']);
    expect(ran.publish).toEqual(['b']);
    const third = await collect(runner.resume({ userId: 'u', sessionId: 's', values: { 'o1/a1:approval': true } }));
    expect(third.result.status).toBe('completed');
    expect(ran.publish).toEqual(['b', 'a']);
    expect(inner.calls).toBe(4);
    const results = outer.requests[1]?.messages.flatMap((m) => toolResultsOf(m)) ?? [];
    expect(Object.fromEntries(results.map((r) => [r.toolCallId, r.output]))).toEqual({ o1: 'done a', o2: 'done b' });
  });

  it('two levels deep: the id and path carry both levels', async () => {
    const deepModel = new ScriptedModel({ responses: [publishCall(), 'deep done'] });
    const publish = tool({
      name: 'publish',
      description: 'p',
      parameters: z.object({ title: z.string() }),
      needsApproval: true,
      execute: () => 'ok',
    });
    const deep = new ReActAgent({ name: 'deep', model: deepModel, tools: [publish] });
    const midModel = new ScriptedModel({ responses: [callTools({ name: 'go_deep', args: { input: 'x' }, id: 'm1' }), 'mid done'] });
    const mid = new ReActAgent({ name: 'mid', model: midModel, tools: [agentTool(deep, { name: 'go_deep' })] });
    const outer = new ScriptedModel({ responses: [researchCall(), 'top done'] });
    const runner = new Runner({
      agent: new ReActAgent({ name: 'root', model: outer, tools: [agentTool(mid, { name: 'research' })] }),
      appName: 'n',
    });
    const first = await collect(runner.run({ userId: 'u', sessionId: 's', input: 'go' }));
    expect(first.result.interrupts).toEqual([
      expect.objectContaining({ id: 'o1/m1/a1:approval', path: 'root/research/mid/go_deep/deep', toolName: 'publish' }),
    ]);
    expect(first.events.some((e) => e.path === 'root/research/mid/go_deep/deep')).toBe(true);
    const done = await collect(runner.resume({ userId: 'u', sessionId: 's', values: { 'o1/m1/a1:approval': true } }));
    expect(done.result).toMatchObject({ status: 'completed', output: 'top done', modelCalls: 3 });
    expect([outer.calls, midModel.calls, deepModel.calls]).toEqual([2, 2, 2]);
  });
});
