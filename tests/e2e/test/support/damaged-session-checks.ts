import { readFile, writeFile } from 'node:fs/promises';
import { expect } from 'vitest';
import { APPROVAL_ID, interruptedSession } from './approval-session.js';
import { runChild } from './child-process.js';
import { damageEvent, sessionFile, type Damage } from './damage-session.js';
import { readAttempts } from './session-view.js';
import { withTarget, type TargetFactory } from './store-target.js';

/**
 * A damaged event fails the resume up front with SessionCorruptError naming the session and the
 * event: no model is called, no tool runs, nothing is written.
 */
export const resumeOfDamagedSession = (newTarget: TargetFactory, damage: Damage) =>
  withTarget(newTarget, async (target) => {
    const sessionId = damage === 'garbage' ? 'corrupt' : 'foreign';
    const base = await interruptedSession(target, sessionId);
    const plan = (await target.session(sessionId))?.events.find((e) => e.author === 'planner');
    if (!plan) throw new Error('no planner event stored');
    await damageEvent(target, sessionId, plan.id, damage);

    const resumed = await runChild({ ...base, mode: 'resume', values: { [APPROVAL_ID]: true }, processLabel: 'resumer' });
    expect(resumed.result?.status).toBe('rejected');
    expect(resumed.result?.error?.name).toBe('SessionCorruptError');
    expect(resumed.result?.error?.message).toContain(`Session "${sessionId}" is corrupt at event "${plan.id}"`);
    if (damage === 'foreign-version') expect(resumed.result?.error?.message).toMatch(/schemaVersion 99/);
    expect(resumed.markers).toEqual([]); // nothing ran, nothing was written
    expect((await readAttempts(target.workDir)).filter((a) => a.process === 'resumer')).toEqual([]);
    await expect(target.session(sessionId)).rejects.toMatchObject({ name: 'SessionCorruptError', sessionId, eventId: plan.id });
  });

/** Resuming an unknown session, or another user's, fails with SessionNotFoundError and changes nothing. */
export const resumeOfUnknownOrForeignSession = (newTarget: TargetFactory) =>
  withTarget(newTarget, async (target) => {
    const base = await interruptedSession(target, 'alice-s');
    const before = await target.session('alice-s');
    for (const attempt of [
      { ...base, sessionId: 'no-such-session' },
      { ...base, userId: 'mallory' }, // alice's session id, another user
    ]) {
      const r = await runChild({ ...attempt, mode: 'resume', values: { [APPROVAL_ID]: true }, processLabel: 'intruder' });
      expect(r.result?.status).toBe('rejected');
      expect(r.result?.error?.name).toBe('SessionNotFoundError');
      expect(r.markers).toEqual([]);
    }
    expect((await readAttempts(target.workDir)).filter((a) => a.process === 'intruder')).toEqual([]);
    expect(await target.session('alice-s')).toEqual(before);
  });

/**
 * A file torn in the middle of its last line (a crash during that append): the torn event is
 * ignored, so the interrupt it held is unknown; resuming asks again, and the answer completes
 * the run with the tool run once.
 */
export const resumeOfTornFile = (newTarget: TargetFactory) =>
  withTarget(newTarget, async (target) => {
    const base = await interruptedSession(target, 'torn');
    const file = await sessionFile(target, 'torn');
    const text = await readFile(file, 'utf8');
    const last = text.slice(0, -1).lastIndexOf('\n') + 1;
    expect(text.slice(last)).toContain(APPROVAL_ID);
    await writeFile(file, text.slice(0, last + Math.floor((text.length - last) / 2)));
    const version = (await target.session('torn'))?.version;

    const answered = await runChild({ ...base, mode: 'resume', values: { [APPROVAL_ID]: true }, processLabel: 'early' });
    expect(answered.result?.error).toMatchObject({ name: 'ResumeError', message: expect.stringMatching(/^No open interrupt/) });
    const asked = await runChild({ ...base, mode: 'resume', processLabel: 'again' });
    expect(asked.result).toMatchObject({ status: 'interrupted', interrupts: [{ id: APPROVAL_ID }] });
    expect((await target.session('torn'))?.version).toBe((version as number) + 2); // the resume marker, the interrupt again
    const done = await runChild({ ...base, mode: 'resume', values: { [APPROVAL_ID]: true }, processLabel: 'approver' });
    expect(done.result).toMatchObject({
      status: 'completed',
      output: 'check the balance -> ok:balance | transfer 10 to bob -> sent 10 to bob',
    });
    expect((await readAttempts(target.workDir)).filter((a) => a.tool === 'transfer').map((a) => a.process)).toEqual(['approver']);
  });
