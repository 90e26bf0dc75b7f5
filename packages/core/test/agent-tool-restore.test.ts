import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FileSessionStore, Runner, type SessionStore, toolResultsOf } from '@replan/core';
import { childSessionId } from '@replan/core/agent-kit';
import { ScriptedModel } from '@replan/core/testing';
import { collect } from './support.js';
import { publishCall, researchCall, world } from './support/agent-tool-world.js';

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
      await expect(run.result()).rejects.toMatchObject({ name: 'ResumeError', kind: 'unknown_interrupt' });
      await expect(run.result()).rejects.toThrow(/o1\/a1:approval/); // the message lists the id to answer
    }
    expect((await store.get({ appName: 'nest', userId: 'u', id: 's' }))?.version).toBe(before?.version);
    expect([ran.publish, inner.calls]).toEqual([[], 1]);
  });

  it('a child session deleted while waiting: the answer is not lost silently, the outer model gets an error result', async () => {
    const { runner, store, ran, inner, outer } = await interrupted();
    const parent = await store.get({ appName: 'nest', userId: 'u', id: 's' });
    const childId = childSessionId('s', parent?.events[0]?.invocationId as string, 'o1');
    await store.delete({ appName: 'nest', userId: 'u', id: childId });
    const done = await collect(runner.resume({ userId: 'u', sessionId: 's', values: { 'o1/a1:approval': true } }));
    expect(done.result).toMatchObject({ status: 'completed', output: 'outer final' });
    expect([ran.publish, inner.calls]).toEqual([[], 1]); // the inner agent was not started again
    const result = toolResultsOf(outer.requests[1]?.messages.at(-1))[0];
    expect(result?.isError).toBe(true);
    expect(String(result?.output)).toMatch(/no longer exists, but the resume answers its interrupts \(a1:approval\)/);
  });

  it('a nested approval is an approval: typed `approvals` answer it, a value that is no approval answer is refused', async () => {
    const { runner, ran } = await interrupted();
    const bad = runner.resume({ userId: 'u', sessionId: 's', values: { 'o1/a1:approval': 'yes please' } });
    await expect(bad.result()).rejects.toMatchObject({ name: 'ResumeError', kind: 'invalid_value' });
    await expect(bad.result()).rejects.toThrow(/o1\/a1:approval.*approval interrupt \(tool "publish"\)/);
    expect(ran.publish).toEqual([]);
    const done = await runner.resume({ userId: 'u', sessionId: 's', approvals: { 'o1/a1:approval': { approved: true } } }).result();
    expect(done.status).toBe('completed');
    expect(ran.publish).toEqual(['Tides']);
  });

  it('an answer for an inner interrupt while the outer run is not interrupted is refused', async () => {
    const { runner } = await interrupted();
    await runner.resume({ userId: 'u', sessionId: 's', values: { 'o1/a1:approval': true } }).result();
    const late = runner.resume({ userId: 'u', sessionId: 's', values: { 'o1/a1:approval': true } });
    await expect(late.result()).rejects.toMatchObject({ name: 'ResumeError', kind: 'unknown_interrupt' });
  });
});
