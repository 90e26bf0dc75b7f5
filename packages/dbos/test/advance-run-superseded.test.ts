import { describe, expect, it } from 'vitest';
import { LeaseLostError, SessionBusyError, type Runner } from '@replan/core';
import { advanceRun } from '../src/advance-run.js';

/**
 * The chaos failure under load: a starved worker's run was handed to another execution, and the
 * superseded one, waking, took the session's lease again; the execution DBOS had handed the run to
 * then lost its lease and, thrown, ended the workflow in ERROR. Here a scripted runner plays the
 * session's side: each `resume` answers with the next scripted outcome.
 */
type Outcome = 'lease_lost' | 'busy' | 'completed';

function scriptedRunner(outcomes: Outcome[]) {
  const calls: Outcome[] = [];
  const session = { events: [{ message: { role: 'user', content: 'go' } }], version: 3 };
  const resume = () => {
    const next = outcomes.shift() ?? 'completed';
    calls.push(next);
    if (next === 'busy') throw new SessionBusyError('s1', { owner: 'other', expiresAt: Date.now() + 5 });
    const error = next === 'lease_lost' ? new LeaseLostError('s1', 3, 4, 'superseded') : undefined;
    return {
      result: async () => ({
        status: next === 'completed' ? 'completed' : 'failed',
        output: next === 'completed' ? 'done' : undefined,
        interrupts: [],
        ...(error ? { error } : {}),
      }),
    };
  };
  const runner = {
    appName: 'e2e',
    leaseMs: 30,
    sessionStore: { get: async () => session },
    resume,
    run: resume,
  } as unknown as Runner;
  return { runner, calls };
}

/** Owns the run until its first call to the session: superseded while that call ran. */
const ownedUntilFirstCall = (calls: readonly Outcome[]) => async () => calls.length === 0;

const run = { appName: 'e2e', userId: 'u1', sessionId: 's1', input: 'go' };
const created = { mark: async () => undefined, seen: async () => true };

describe('advanceRun when another execution took the session lease', () => {
  it('the execution that still drives the workflow waits the thief out and resumes from the log: the run completes', async () => {
    const { runner, calls } = scriptedRunner(['lease_lost', 'completed']);
    const stand = await advanceRun(runner, run, undefined, { mayCreate: false, created, owns: async () => true });
    expect(stand).toMatchObject({ status: 'completed', output: 'done', offset: 3 });
    expect(calls).toEqual(['lease_lost', 'completed']);
  });

  it('a superseded execution that lost its lease throws it (DBOS records nothing of it) and does not resume', async () => {
    const { runner, calls } = scriptedRunner(['lease_lost', 'completed']);
    const owns = ownedUntilFirstCall(calls);
    await expect(advanceRun(runner, run, undefined, { mayCreate: false, created, owns })).rejects.toBeInstanceOf(LeaseLostError);
    expect(calls).toEqual(['lease_lost']);
  });

  it('an execution superseded while it waited for a busy session stops instead of taking the lease from the new owner', async () => {
    const { runner, calls } = scriptedRunner(['busy', 'completed']);
    const owns = ownedUntilFirstCall(calls);
    await expect(advanceRun(runner, run, undefined, { mayCreate: false, created, owns })).rejects.toBeInstanceOf(SessionBusyError);
    expect(calls).toEqual(['busy']);
  });

  it('an execution superseded before it took the lease (starved after its dequeue) never runs', async () => {
    const { runner, calls } = scriptedRunner(['completed']);
    await expect(advanceRun(runner, run, undefined, { mayCreate: false, created, owns: async () => false })).rejects.toThrow(
      /handed to another execution/,
    );
    expect(calls).toEqual([]);
  });

  it('an owner waits for a busy session and then runs', async () => {
    const { runner, calls } = scriptedRunner(['busy', 'busy', 'completed']);
    const stand = await advanceRun(runner, run, undefined, { mayCreate: false, created, owns: async () => true });
    expect(stand.status).toBe('completed');
    expect(calls).toEqual(['busy', 'busy', 'completed']);
  });
});
