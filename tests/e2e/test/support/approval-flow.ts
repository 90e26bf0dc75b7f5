import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect } from 'vitest';
import { toolResultsOf } from '@replan/core';
import { APPROVAL_ID, interruptedSession } from './approval-session.js';
import { runChild, type ChildOutcome } from './child-process.js';
import { readAttempts, readEffects } from './session-view.js';
import { withTarget, type StoreTarget, type TargetFactory } from './store-target.js';

/** A session stopped on its approval; resuming it without an answer, from another process, changes nothing. */
async function startInterrupted(target: StoreTarget, sessionId: string) {
  const base = await interruptedSession(target, sessionId);
  // Resuming without an answer, from yet another process, stays interrupted and calls nothing.
  const idle = await runChild({ ...base, mode: 'resume', processLabel: 'idle' });
  expect(idle.result).toMatchObject({ status: 'interrupted', modelCalls: 0, interrupts: [{ id: APPROVAL_ID }] });
  expect((await readAttempts(target.workDir)).filter((a) => a.process === 'idle')).toEqual([]);
  expect(await readEffects(target.workDir, sessionId)).toEqual(['s1t1c1']);
  return base;
}

const transfers = async (target: StoreTarget, process?: string) =>
  (await readAttempts(target.workDir)).filter((a) => a.tool === 'transfer' && (!process || a.process === process));

/**
 * A run stops for approval in one process; another process (its own Runner and store) answers.
 * Approved: the transfer runs once and the run completes. Rejected: the transfer never runs, the
 * executor's model is told (its step result quotes the rejection) and the run completes.
 */
export async function approvalAcrossProcesses(newTarget: TargetFactory, approved: boolean): Promise<void> {
  return withTarget(newTarget, async (target) => {
    const sessionId = approved ? 'approve' : 'reject';
    const base = await startInterrupted(target, sessionId);
    expect(await transfers(target)).toEqual([]);

    const value = approved ? true : { approved: false, message: 'not today' };
    const answer = await runChild({ ...base, mode: 'resume', values: { [APPROVAL_ID]: value }, processLabel: 'approver' });
    const step2 = approved
      ? 'transfer 10 to bob -> sent 10 to bob'
      : 'transfer 10 to bob -> The user rejected this call of "transfer": not today. Do not retry it unchanged.';
    expect(answer.result).toMatchObject({ status: 'completed', output: `check the balance -> ok:balance | ${step2}`, modelCalls: 2 });
    expect((await transfers(target, 'approver')).length).toBe(approved ? 1 : 0);
    expect(await readEffects(target.workDir, sessionId)).toEqual(approved ? ['s1t1c1', 's2t1c1'] : ['s1t1c1']);

    const session = await target.session(sessionId);
    const result = session?.events.flatMap((e) => toolResultsOf(e.message)).find((r) => r.toolCallId === 's2t1c1');
    expect(result).toMatchObject(approved ? { output: 'sent 10 to bob' } : { isError: true, output: expect.stringContaining('not today') });
    expect(session?.state.Plan).toEqual({ steps: ['transfer 10 to bob'] });

    // Resuming a finished run, in a fourth process, returns its answer and runs nothing.
    const again = await runChild({ ...base, mode: 'resume', processLabel: 'late' });
    expect(again.result).toMatchObject({ status: 'completed', output: answer.result?.output, modelCalls: 0 });
    expect((await readAttempts(target.workDir)).filter((a) => a.process === 'late')).toEqual([]);
  });
}

/**
 * Two processes approve the same interrupt at the same instant (both held just before they
 * claim the session): exactly one proceeds, the other gets ConcurrentUpdateError; the transfer
 * runs once and the log holds one resume.
 */
export async function twoApproversAtOnce(newTarget: TargetFactory): Promise<void> {
  return withTarget(newTarget, async (target) => {
    const sessionId = 'race';
    const base = await startInterrupted(target, sessionId);
    const gate = join(target.workDir, 'go');
    let waiting = 2;
    const open = () => {
      if (--waiting === 0) void writeFile(gate, '');
    };
    const approve = (processLabel: string): Promise<ChildOutcome> =>
      runChild(
        { ...base, mode: 'resume', values: { [APPROVAL_ID]: true }, processLabel, hold: { at: 1, file: gate } },
        { onMarker: (n, label) => n === 1 && label === 'store:append:before user:resume' && open() },
      );
    const outcomes = await Promise.all([approve('a'), approve('b')]);
    const statuses = outcomes.map((o) => o.result?.status).sort();
    expect(statuses).toEqual(['completed', 'rejected']);
    const loser = outcomes.find((o) => o.result?.status === 'rejected');
    expect(loser?.result?.error?.name).toBe('ConcurrentUpdateError');
    expect(loser?.markers).toEqual(['store:append:before user:resume']);
    expect((await transfers(target)).length).toBe(1);
    expect(await readEffects(target.workDir, sessionId)).toEqual(['s1t1c1', 's2t1c1']);
    const events = (await target.session(sessionId))?.events ?? [];
    expect(events.filter((e) => e.meta?.kind === 'resume')).toHaveLength(1);
  });
}
