import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  ChildSessionError,
  InMemorySessionStore,
  ReActAgent,
  Runner,
  agentTool,
  childSessionId,
  childSessionRoot,
  tool,
  type SessionKey,
} from '@replan/core';
import { ScriptedModel, callTools } from '@replan/core/testing';
import { collect } from './support.js';
import { publishCall, researchCall, world } from './support/agent-tool-world.js';

const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: unknown) => error,
  );

describe('agentTool: a child session is answered through its root session', () => {
  it('a resume addressed to the child is refused naming the root session and id; nothing is stored; the root answer runs the tool once', async () => {
    const outer = new ScriptedModel({ responses: [researchCall(), 'outer final'] });
    const inner = new ScriptedModel({ responses: [publishCall(), 'inner published'] });
    const store = new InMemorySessionStore();
    const { ran, runner } = world({ outer, inner }, store);
    const first = await collect(runner.run({ userId: 'u', sessionId: 's', input: 'go' }));
    expect(first.result.status).toBe('interrupted');
    const childKey: SessionKey = { appName: 'nest', userId: 'u', id: childSessionId('s', first.result.invocationId, 'o1') };
    const child = await store.get(childKey);
    const parent = await store.get({ appName: 'nest', userId: 'u', id: 's' });
    // The lease token the next acquire gets: a refused resume must not have taken (or released) one.
    const probe = await store.acquireLease(childKey, { owner: 'probe', ttlMs: 1_000 });
    await store.releaseLease(childKey, probe);

    const refused = await refusal(runner.resume({ userId: 'u', sessionId: childKey.id, values: { 'a1:approval': true } }).result());
    expect(refused).toBeInstanceOf(ChildSessionError);
    expect((refused as ChildSessionError).kind).toBe('resume');
    expect(refused).toMatchObject({
      childSessionId: childKey.id,
      parentSessionId: 's',
      toolCallId: 'o1',
      rootSessionId: 's',
      interruptIds: { 'a1:approval': 'o1/a1:approval' },
    });
    expect((refused as Error).message).toContain('session "s"');
    expect((refused as Error).message).toContain('"o1/a1:approval"');
    // The typed answers, a bare resume (it names the open interrupts) and a new run are refused the same way.
    const approvals = await refusal(runner.resume({ userId: 'u', sessionId: childKey.id, approvals: { 'a1:approval': true } }).result());
    expect(approvals).toMatchObject({ interruptIds: { 'a1:approval': 'o1/a1:approval' } });
    const bare = await refusal(runner.resume({ userId: 'u', sessionId: childKey.id }).result());
    expect(bare).toMatchObject({ rootSessionId: 's', interruptIds: { 'a1:approval': 'o1/a1:approval' } });
    const fresh = await refusal(runner.run({ userId: 'u', sessionId: childKey.id, input: 'again' }).result());
    expect(fresh).toMatchObject({ name: 'ChildSessionError', kind: 'resume' });

    // Nothing was stored or run: neither session changed, no lease was taken, no model or tool ran.
    expect(await store.get(childKey)).toEqual(child);
    expect(await store.get({ appName: 'nest', userId: 'u', id: 's' })).toEqual(parent);
    const next = await store.acquireLease(childKey, { owner: 'probe', ttlMs: 1_000 });
    expect(next.token).toBe(probe.token + 1);
    await store.releaseLease(childKey, next);
    expect([ran.publish, outer.calls, inner.calls]).toEqual([[], 1, 1]);

    // Answering the root with the id the error named runs the tool once and finishes both runs.
    const done = await collect(
      runner.resume({ userId: 'u', sessionId: 's', values: { [(refused as ChildSessionError).interruptIds['a1:approval']!]: true } }),
    );
    expect(done.result).toMatchObject({ status: 'completed', output: 'outer final' });
    expect([ran.publish, outer.calls, inner.calls]).toEqual([['Tides'], 2, 2]);
    const children = (await store.list({ appName: 'nest', userId: 'u' })).sessions.map((s) => s.id);
    expect(children.sort()).toEqual([childKey.id, 's'].sort()); // no grandchild was made
  });

  it('two levels deep: the grandchild names the root session and the id that carries both levels', async () => {
    const publish = tool({
      name: 'publish',
      description: 'p',
      parameters: z.object({ title: z.string() }),
      needsApproval: true,
      execute: () => 'ok',
    });
    const deepModel = new ScriptedModel({ responses: [publishCall(), 'deep done'] });
    const deep = new ReActAgent({ name: 'deep', model: deepModel, tools: [publish] });
    const midModel = new ScriptedModel({ responses: [callTools({ name: 'go_deep', args: { input: 'x' }, id: 'm1' }), 'mid done'] });
    const mid = new ReActAgent({ name: 'mid', model: midModel, tools: [agentTool(deep, { name: 'go_deep' })] });
    const outer = new ScriptedModel({ responses: [researchCall(), 'top done'] });
    const store = new InMemorySessionStore();
    const runner = new Runner({
      agent: new ReActAgent({ name: 'root', model: outer, tools: [agentTool(mid, { name: 'research' })] }),
      appName: 'n',
      sessionStore: store,
    });
    const first = await runner.run({ userId: 'u', sessionId: 's', input: 'go' }).result();
    const midId = childSessionId('s', first.invocationId, 'o1');
    const midSession = await store.get({ appName: 'n', userId: 'u', id: midId });
    const deepId = childSessionId(midId, midSession!.events[0]!.invocationId, 'm1');
    const deepSession = await store.get({ appName: 'n', userId: 'u', id: deepId });
    expect(await childSessionRoot(deepSession!, (key) => store.get(key))).toEqual({
      parentSessionId: midId,
      toolCallId: 'm1',
      rootSessionId: 's',
      interruptPrefix: 'o1/m1/',
    });
    const refused = await refusal(runner.resume({ userId: 'u', sessionId: deepId, values: { 'a1:approval': true } }).result());
    expect(refused).toMatchObject({ parentSessionId: midId, rootSessionId: 's', interruptIds: { 'a1:approval': 'o1/m1/a1:approval' } });
    const midRefused = await refusal(runner.resume({ userId: 'u', sessionId: midId, values: { 'm1/a1:approval': true } }).result());
    expect(midRefused).toMatchObject({ rootSessionId: 's', interruptIds: { 'm1/a1:approval': 'o1/m1/a1:approval' } });
    expect(await store.get({ appName: 'n', userId: 'u', id: deepId })).toEqual(deepSession);
    expect([outer.calls, midModel.calls, deepModel.calls]).toEqual([1, 1, 1]);
    const done = await runner.resume({ userId: 'u', sessionId: 's', values: { 'o1/m1/a1:approval': true } }).result();
    expect(done).toMatchObject({ status: 'completed', output: 'top done' });
    expect([outer.calls, midModel.calls, deepModel.calls]).toEqual([2, 2, 2]);
  });

  it('a session that only looks like a child session (its id has the shape) is resumed as usual', async () => {
    const outer = new ScriptedModel({ responses: [callTools({ name: 'outer_delete', args: {}, id: 'd1' }), 'deleted all'] });
    const { ran, runner } = world({ outer, inner: new ScriptedModel() });
    const id = 'mine#0123456789abcdef';
    const first = await runner.run({ userId: 'u', sessionId: id, input: 'go' }).result();
    expect(first.interrupts.map((i) => i.id)).toEqual(['d1:approval']);
    const done = await runner.resume({ userId: 'u', sessionId: id, values: { 'd1:approval': true } }).result();
    expect(done).toMatchObject({ status: 'completed', output: 'deleted all' });
    expect(ran.outerDelete).toBe(1);
  });
});
