import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  FileSessionStore,
  InMemorySessionStore,
  ReActAgent,
  Runner,
  UnknownInterruptError,
  agentTool,
  childSessionId,
  messageText,
  tool,
  toolResultsOf,
  type SessionStore,
} from '@replan/core';
import { ScriptedModel, callTools } from '@replan/core/testing';
import { collect } from './support.js';

/**
 * root ─ research (agentTool) ─ researcher ─ publish (needs approval), ask (ctx.interrupt)
 *      └ outer_delete (needs approval; its call id collides with the inner one on purpose)
 */
function world(models: { outer: ScriptedModel; inner: ScriptedModel }, store: SessionStore = new InMemorySessionStore()) {
  const ran = { publish: [] as string[], ask: [] as string[], outerDelete: 0 };
  const publish = tool({
    name: 'publish',
    description: 'Publish a post',
    parameters: z.object({ title: z.string() }),
    needsApproval: true,
    execute: ({ title }) => (ran.publish.push(title), `published ${title}`),
  });
  const ask = tool({
    name: 'ask',
    description: 'Ask the user',
    parameters: z.object({ question: z.string() }),
    execute: ({ question }, ctx) => {
      const answer = ctx.interrupt<string>({ question }, { reason: 'question' });
      ran.ask.push(answer);
      return `user said ${answer}`;
    },
  });
  const outerDelete = tool({
    name: 'outer_delete',
    description: 'Delete everything',
    parameters: z.object({}),
    needsApproval: true,
    execute: () => (ran.outerDelete++, 'deleted'),
  });
  const researcher = new ReActAgent({ name: 'researcher', model: models.inner, tools: [publish, ask] });
  const root = new ReActAgent({ name: 'root', model: models.outer, tools: [agentTool(researcher, { name: 'research' }), outerDelete] });
  return { ran, store, runner: new Runner({ agent: root, appName: 'nest', sessionStore: store }) };
}

const researchCall = (id = 'o1') => callTools({ name: 'research', args: { input: 'write a post' }, id });
const publishCall = () => callTools({ name: 'publish', args: { title: 'Tides' }, id: 'a1' });

describe('agentTool: interrupts inside the nested agent', () => {
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
    expect(second.events.filter((e) => e.path === 'root/research/researcher').length).toBeGreaterThan(0);

    const again = await collect(runner.resume({ userId: 'u', sessionId: 's' }));
    expect(again.result).toMatchObject({ status: 'completed', output: 'outer final' });
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

describe('agentTool: restore and crash', () => {
  const dirs: string[] = [];
  afterEach(async () => {
    for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
  });
  const tempDir = async () => {
    const dir = await mkdtemp(join(tmpdir(), 'replan-agent-tool-'));
    dirs.push(dir);
    return dir;
  };

  it("after a restore (new Runner, reopened FileSessionStore) the approval is the inner agent's and resumes once", async () => {
    const dir = await tempDir();
    const a = world(
      { outer: new ScriptedModel({ responses: [researchCall()] }), inner: new ScriptedModel({ responses: [publishCall()] }) },
      new FileSessionStore({ dir }),
    );
    expect((await a.runner.run({ userId: 'u', sessionId: 's', input: 'go' }).result()).status).toBe('interrupted');
    await a.store.close?.();

    const outer = new ScriptedModel({ responses: ['outer final'] });
    const inner = new ScriptedModel({ responses: ['inner published'] });
    const b = world({ outer, inner }, new FileSessionStore({ dir }));
    const pending = await b.runner.resume({ userId: 'u', sessionId: 's' }).result();
    expect(pending.interrupts).toEqual([
      expect.objectContaining({ id: 'o1/a1:approval', path: 'root/research/researcher', toolName: 'publish' }),
    ]);
    const done = await collect(b.runner.resume({ userId: 'u', sessionId: 's', values: { 'o1/a1:approval': true } }));
    expect(done.result).toMatchObject({ status: 'completed', output: 'outer final' });
    expect([a.ran.publish, b.ran.publish, inner.calls, outer.calls]).toEqual([[], ['Tides'], 1, 1]);
    await b.store.close?.();
  });

  it('a crash between the child finishing and the outer result being stored: resume returns the stored child result', async () => {
    const dir = await tempDir();
    const a = world(
      {
        outer: new ScriptedModel({ responses: [researchCall()] }),
        inner: new ScriptedModel({ responses: [publishCall(), 'inner published'] }),
      },
      new FileSessionStore({ dir }),
    );
    await a.runner.run({ userId: 'u', sessionId: 's', input: 'go' }).result();
    // The outer session refuses the tool result of o1 (as if the process died before storing it).
    const file = a.store as FileSessionStore;
    const failing: SessionStore = Object.assign(Object.create(file) as FileSessionStore, {
      appendEvents: (
        key: Parameters<SessionStore['appendEvents']>[0],
        events: Parameters<SessionStore['appendEvents']>[1],
        opts: Parameters<SessionStore['appendEvents']>[2],
      ) =>
        key.id === 's' && events.some((e) => toolResultsOf(e.message).some((r) => r.toolCallId === 'o1'))
          ? Promise.reject(new Error('disk gone'))
          : file.appendEvents(key, events, opts),
    });
    const crashing = new Runner({ agent: a.runner.agent, appName: 'nest', sessionStore: failing });
    const crashed = await crashing.resume({ userId: 'u', sessionId: 's', values: { 'o1/a1:approval': true } }).result();
    expect(crashed.status).toBe('failed');
    expect(a.ran.publish).toEqual(['Tides']);
    const child = await file.get({ appName: 'nest', userId: 'u', id: childSessionId('s', crashed.invocationId, 'o1') });
    expect(child?.events.at(-1)?.actions?.invocationEnd?.status).toBe('completed');
    await file.close?.();

    const outer = new ScriptedModel({ responses: ['outer final'] });
    const inner = new ScriptedModel({ responses: [] });
    const b = world({ outer, inner }, new FileSessionStore({ dir }));
    const done = await collect(b.runner.resume({ userId: 'u', sessionId: 's' }));
    expect(done.result).toMatchObject({ status: 'completed', output: 'outer final' });
    expect([b.ran.publish, inner.calls, outer.calls]).toEqual([[], 0, 1]);
    expect(toolResultsOf(outer.requests[0]?.messages.at(-1))[0]?.output).toBe('inner published');
    await b.store.close?.();
  });
});

describe('agentTool: bad resume values', () => {
  async function interrupted() {
    const outer = new ScriptedModel({ responses: [researchCall(), 'outer final'] });
    const inner = new ScriptedModel({ responses: [publishCall(), 'inner published'] });
    const w = world({ outer, inner });
    await w.runner.run({ userId: 'u', sessionId: 's', input: 'go' }).result();
    return { ...w, outer, inner };
  }

  it('an unknown nested id, or the inner id without its prefix, is refused before anything is stored', async () => {
    const { runner, store, ran, inner } = await interrupted();
    const before = await store.get({ appName: 'nest', userId: 'u', id: 's' });
    for (const id of ['o1/nope:approval', 'a1:approval', 'o2/a1:approval']) {
      const run = runner.resume({ userId: 'u', sessionId: 's', values: { [id]: true } });
      await expect(run.result()).rejects.toBeInstanceOf(UnknownInterruptError);
      await expect(run.result()).rejects.toThrow(/o1\/a1:approval/); // the message lists the id to answer
    }
    expect((await store.get({ appName: 'nest', userId: 'u', id: 's' }))?.version).toBe(before?.version);
    expect([ran.publish, inner.calls]).toEqual([[], 1]);
  });

  it('an answer for an inner interrupt while the outer run is not interrupted is refused', async () => {
    const { runner } = await interrupted();
    await runner.resume({ userId: 'u', sessionId: 's', values: { 'o1/a1:approval': true } }).result();
    const late = runner.resume({ userId: 'u', sessionId: 's', values: { 'o1/a1:approval': true } });
    await expect(late.result()).rejects.toBeInstanceOf(UnknownInterruptError);
  });
});
