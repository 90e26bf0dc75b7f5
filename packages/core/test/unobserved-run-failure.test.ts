import { afterEach, describe, expect, it, vi } from 'vitest';
import { ReActAgent, Runner } from '@replan/core';
import { ScriptedModel } from '@replan/core/testing';

const failingRunner = () =>
  new Runner({
    agent: new ReActAgent({ name: 'a', model: new ScriptedModel({ respond: () => new Error('the model is down') }) }),
    appName: 'app',
  });
const settle = () => new Promise((r) => setTimeout(r, 20));

afterEach(() => vi.restoreAllMocks());

describe('a failing run nobody observes', () => {
  it('is reported once as a process warning naming the session and the error', async () => {
    const warn = vi.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    const run = failingRunner().run({ userId: 'u', sessionId: 'lost-1', input: 'hi' });
    expect(run.sessionId).toBe('lost-1');
    await settle();
    const ours = warn.mock.calls.filter((c) => (c[1] as { type?: string } | undefined)?.type === 'ReplanUnobservedRunFailure');
    expect(ours).toHaveLength(1);
    expect(String(ours[0]?.[0])).toMatch(/app "app", user "u", session "lost-1" failed and nothing read its result: .*the model is down/);
    expect(String(ours[0]?.[0])).toMatch(/Await run\.result\(\)/);
  });

  it('also when it could not start (a bad session id)', async () => {
    const warn = vi.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    failingRunner().run({ userId: 'u', sessionId: 'bad\u0000id', input: 'hi' });
    await settle();
    expect(warn.mock.calls.filter((c) => (c[1] as { type?: string } | undefined)?.type === 'ReplanUnobservedRunFailure')).toHaveLength(1);
  });

  it('is not reported when its result was read or it was iterated', async () => {
    const warn = vi.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    const runner = failingRunner();
    const read = runner.run({ userId: 'u', input: 'hi' });
    expect((await read.result()).status).toBe('failed');
    const iterated = runner.run({ userId: 'u', input: 'hi' });
    for await (const _ of iterated);
    await settle();
    expect(warn.mock.calls.filter((c) => (c[1] as { type?: string } | undefined)?.type === 'ReplanUnobservedRunFailure')).toEqual([]);
  });

  it('knows its session at once: given, or the id the runner made', () => {
    const runner = failingRunner();
    const run = runner.run({ userId: 'u', input: 'hi' });
    expect(run.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    expect([run.appName, run.userId, run.sessionStore]).toEqual(['app', 'u', runner.sessionStore]);
    void run.result();
  });
});
