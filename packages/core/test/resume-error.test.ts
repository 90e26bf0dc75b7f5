import { describe, expect, it } from 'vitest';
import { InMemorySessionStore, ReActAgent, ReplanError, ResumeError, Runner } from '@replan/core';
import { ScriptedModel } from '@replan/core/testing';

// The one resume-error class: its kinds, the fields each carries, and a message that says what to do.
// The runner's paths to `unknown_interrupt`, `invalid_value` and `open_interrupts` are tested where
// they happen (approval-answers, open-interrupts, agent-resume-check); `nothing_to_resume` here.
describe('ResumeError', () => {
  it('nothing_to_resume: resuming a session that never ran an invocation is refused, naming the session; nothing stored', async () => {
    const store = new InMemorySessionStore();
    const key = { appName: 'a', userId: 'u', id: 'empty' };
    await store.create(key, []);
    const runner = new Runner({
      agent: new ReActAgent({ name: 'agent', model: new ScriptedModel({ responses: [] }) }),
      appName: 'a',
      sessionStore: store,
    });
    const error = await runner
      .resume({ userId: 'u', sessionId: 'empty' })
      .result()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResumeError);
    expect(error).toBeInstanceOf(ReplanError);
    expect(error).toMatchObject({ name: 'ResumeError', kind: 'nothing_to_resume', sessionId: 'empty', interruptId: undefined });
    expect((error as Error).message).toBe('Session "empty" has no invocation to resume; start one with runner.run().');
    expect((await store.get(key))?.events).toEqual([]);
  });

  it('each factory sets its kind and the fields of that kind, and leaves the others empty', () => {
    const unknown = ResumeError.unknownInterrupt('x:1', []);
    expect(unknown).toMatchObject({ kind: 'unknown_interrupt', interruptId: 'x:1', openInterruptIds: [], interrupts: [] });
    expect(unknown.message).toBe('No open interrupt "x:1" in this session. Open interrupts: none. Use the ids from RunResult.interrupts.');
    const invalid = ResumeError.invalidValue('q:1', 'it must be a number');
    expect(invalid).toMatchObject({ kind: 'invalid_value', interruptId: 'q:1', problem: 'it must be a number', sessionId: undefined });
    expect(invalid.message).toMatch(/"q:1": it must be a number\. Nothing was run; resume again with a valid value\.$/);
    const open = ResumeError.openInterrupts('s', [{ id: 'b1:approval', reason: 'approval', toolName: 'book' }]);
    expect(open).toMatchObject({ kind: 'open_interrupts', sessionId: 's', openInterruptIds: [], problem: undefined });
    expect(open.interrupts).toEqual([{ id: 'b1:approval', reason: 'approval', toolName: 'book' }]);
    expect(open.message).toMatch(/^Session "s" is waiting on 1 open interrupt\(s\): "b1:approval" \(approval of book\)\./);
  });
});
