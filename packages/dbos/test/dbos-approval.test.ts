import { join } from 'node:path';
import { describe, expect } from 'vitest';
import { lines, useDbos } from './support/dbos-fixture.js';

const LEASE_MS = 1_000;
const dbos = useDbos({ leaseMs: LEASE_MS });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const effectsOf = async (session: string) =>
  (await lines<{ key: string; label: string }>(join(dbos.workDir, 'effects.log'))).filter((e) => e.key.startsWith(`${session}:`));
const appendsOf = async (session: string) =>
  (await lines<{ session: string; label: string; from: number; to: number }>(join(dbos.workDir, 'appends.log'))).filter(
    (a) => a.session === session,
  );

describe('DBOS runs that wait for a human', () => {
  dbos.db.it('an approval answered from another process while the waiting worker was killed completes exactly once', async () => {
    const first = dbos.worker({ label: 'approve-w1', app: 'approve' });
    await first.ready;
    const key = { appName: 'approve', userId: 'u1', sessionId: 'approval-1' };
    await dbos.runs.start({ ...key, input: 'record x' });
    const waiting = await dbos.runs.result(key);
    expect(waiting.status).toBe('interrupted');
    const [interrupt] = waiting.interrupts;
    expect(interrupt?.reason).toBe('approval');

    // The worker holding the waiting workflow dies; the answer comes from this process meanwhile.
    first.child.kill('SIGKILL');
    await first.exited;
    await dbos.runs.answer({ ...key, values: { [interrupt!.id]: { approved: true } } });
    // An answer to an interrupt that is not open is refused, nothing sent.
    await expect(dbos.runs.answer({ ...key, values: { 'no-such-interrupt': { approved: true } } })).rejects.toThrow(/No open interrupt/);

    const second = dbos.worker({ label: 'approve-w2', app: 'approve' });
    await second.ready;
    const done = await dbos.runs.result(key);
    expect(done).toMatchObject({ status: 'completed', output: 'done' });

    const effects = (await lines<{ key: string; label: string }>(join(dbos.workDir, 'effects.log'))).filter((e) =>
      e.key.startsWith('approval-1'),
    );
    expect(effects.map((e) => e.label)).toEqual(['approve-w2']);
    await expect(dbos.runs.answer({ ...key, values: { [interrupt!.id]: { approved: true } } })).rejects.toThrow(/already ended/);
  });
});

describe('DBOS runs whose session is deleted, and interrupt ids shared by sessions', () => {
  dbos.db.it('a session deleted while its run waits for approval is not brought back: the answer ends the run as deleted', async () => {
    const worker = dbos.worker({ label: 'delete-w1', app: 'approve' });
    await worker.ready;
    const key = { appName: 'approve', userId: 'u1', sessionId: 'deleted-1' };
    await dbos.runs.start({ ...key, input: 'record x' });
    const waiting = await dbos.runs.result(key);
    expect(waiting.status).toBe('interrupted');
    const storeKey = { appName: key.appName, userId: key.userId, id: key.sessionId };
    await dbos.store.delete(storeKey);
    await dbos.runs.answer({ ...key, values: { [waiting.interrupts[0]!.id]: { approved: true } } });
    const ended = await dbos.runs.result(key);
    expect(ended.status).toBe('deleted');
    expect(ended.error).toMatchObject({
      name: 'DbosError',
      message: expect.stringMatching(/was deleted while its run was under way/),
    });
    expect(await dbos.store.get(storeKey)).toBeUndefined();
    const effects = (await lines<{ key: string }>(join(dbos.workDir, 'effects.log'))).filter((e) => e.key.startsWith('deleted-1'));
    expect(effects).toEqual([]);
  });

  dbos.db.it('runs.delete cancels the run and deletes the session; nothing can answer it afterwards', async () => {
    const worker = dbos.worker({ label: 'delete-w2', app: 'approve' });
    await worker.ready;
    const key = { appName: 'approve', userId: 'u1', sessionId: 'deleted-2' };
    await dbos.runs.start({ ...key, input: 'record x' });
    const waiting = await dbos.runs.result(key);
    await dbos.runs.delete(key);
    expect(await dbos.store.get({ appName: key.appName, userId: key.userId, id: key.sessionId })).toBeUndefined();
    expect((await dbos.runs.result(key)).status).toBe('cancelled');
    await expect(dbos.runs.answer({ ...key, values: { [waiting.interrupts[0]!.id]: { approved: true } } })).rejects.toThrow(
      /already ended/,
    );
    expect(await dbos.store.get({ appName: key.appName, userId: key.userId, id: key.sessionId })).toBeUndefined();
  });

  dbos.db.it(
    'runs.delete waits for the step it aborted (a tool ignoring its signal) to stop: the run ended before, nothing written after',
    async () => {
      // The tool ignores its abort signal for 1.5 s: the step goes on until the run is cut off.
      const worker = dbos.worker({ label: 'delete-w3', app: 'slow', toolMs: 1_500 });
      await worker.ready;
      const key = { appName: 'slow', userId: 'u1', sessionId: 'deleted-3' };
      const storeKey = { appName: key.appName, userId: key.userId, id: key.sessionId };
      await dbos.runs.start({ ...key, input: 'wait' });
      for (const deadline = Date.now() + 20_000; !(await effectsOf('deleted-3')).length; await sleep(20))
        if (Date.now() > deadline) throw new Error('the tool never started');
      await dbos.runs.delete(key);
      const atDelete = await appendsOf('deleted-3');
      // The run saw the cancel and ended (released its lease) before the session was deleted.
      const released = await lines<{ session: string }>(join(dbos.workDir, 'releases.log'));
      expect(released.filter((r) => r.session === 'deleted-3')).toHaveLength(1);
      expect(await dbos.store.get(storeKey)).toBeUndefined();
      await sleep(2_500); // the tool has ended by now, and the step with it
      expect(await appendsOf('deleted-3')).toEqual(atDelete);
      expect(await dbos.store.get(storeKey)).toBeUndefined();
      expect((await dbos.runs.result(key)).status).toBe('cancelled');
    },
  );

  dbos.db.it('runs.delete while a worker is about to create the session: it is not created after delete resolved', async () => {
    // The worker has picked the run up and is creating its session (held back 1.5 s) as delete runs.
    const worker = dbos.worker({ label: 'delete-w4', app: 'slow', toolMs: 10, createDelayMs: 1_500 });
    await worker.ready;
    const key = { appName: 'slow', userId: 'u1', sessionId: 'deleted-4' };
    const storeKey = { appName: key.appName, userId: key.userId, id: key.sessionId };
    await dbos.runs.start({ ...key, input: 'wait' });
    for (const deadline = Date.now() + 20_000; !(await effectsOf('deleted-4')).length; await sleep(20))
      if (Date.now() > deadline) throw new Error('the session was never being created');
    await dbos.runs.delete(key);
    expect(await dbos.store.get(storeKey)).toBeUndefined();
    await sleep(2_500);
    expect(await dbos.store.get(storeKey)).toBeUndefined();
    expect(await appendsOf('deleted-4')).toEqual([]);
    expect((await dbos.runs.result(key)).status).toBe('cancelled');
  });

  dbos.db.it('result() of a session does not hang when another session stopped on the same interrupt id was answered', async () => {
    const worker = dbos.worker({ label: 'same-id-w1', app: 'approve' });
    await worker.ready;
    const a = { appName: 'approve', userId: 'u1', sessionId: 'same-id-a' };
    const b = { appName: 'approve', userId: 'u1', sessionId: 'same-id-b' };
    await dbos.runs.start({ ...a, input: 'record x' });
    await dbos.runs.start({ ...b, input: 'record x' });
    const [waitA, waitB] = [await dbos.runs.result(a), await dbos.runs.result(b)];
    // The scripted agent gives its call the same id in every session: the interrupt ids are equal.
    expect(waitA.interrupts[0]!.id).toBe(waitB.interrupts[0]!.id);
    await dbos.runs.answer({ ...a, values: { [waitA.interrupts[0]!.id]: { approved: true } } });
    expect(await dbos.runs.result(a)).toMatchObject({ status: 'completed' });
    const stillWaiting = await Promise.race([dbos.runs.result(b), new Promise((r) => setTimeout(() => r('hung'), 5_000))]);
    expect(stillWaiting).toMatchObject({ status: 'interrupted' });
  });
});
