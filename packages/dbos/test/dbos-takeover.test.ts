import { join } from 'node:path';
import { describe, expect } from 'vitest';
import { lines, useDbos } from './support/dbos-fixture.js';
import { GRAPH_INPUT } from './support/graph-input.js';

const LEASE_MS = 1_000;
const dbos = useDbos({ leaseMs: LEASE_MS });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Append {
  readonly session: string;
  readonly label: string;
  readonly from: number;
  readonly to: number;
}

interface Effect {
  readonly key: string;
  readonly label: string;
}

const effectsOf = async (session: string) =>
  (await lines<Effect>(join(dbos.workDir, 'effects.log'))).filter((e) => e.key.startsWith(`${session}:`));
const appendsOf = async (session: string) => (await lines<Append>(join(dbos.workDir, 'appends.log'))).filter((a) => a.session === session);

/** Waits until `label` has appended to `session` (the run is under way there). */
async function firstAppend(session: string, label: string): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!(await appendsOf(session)).some((a) => a.label === label)) {
    if (Date.now() > deadline) throw new Error(`${label} never appended to ${session}`);
    await sleep(20);
  }
}

describe('DBOS runs taken over from a stalled or replaced worker', () => {
  dbos.db.it('a SIGSTOPped worker past its lease is taken over, and after SIGCONT it writes nothing', async () => {
    const stalled = dbos.worker({ label: 'stop-w1', app: 'e2e', latencyMs: 150 });
    await stalled.ready;
    const key = { appName: 'e2e', userId: 'u1', sessionId: 'stopped-1' };
    await dbos.runs.start({ ...key, input: GRAPH_INPUT });
    await firstAppend(key.sessionId, 'stop-w1');
    stalled.child.kill('SIGSTOP');
    try {
      const taker = dbos.worker({ label: 'stop-w2', app: 'e2e', latencyMs: 20 });
      await taker.ready;
      const done = await dbos.runs.result(key);
      expect(done.status).toBe('completed');
      expect(done.output).toMatch(/e: report on c and d/);
    } finally {
      stalled.child.kill('SIGCONT');
    }
    const before = await appendsOf(key.sessionId);
    const takenAt = Math.min(...before.filter((a) => a.label === 'stop-w2').map((a) => a.from));
    await sleep(3 * LEASE_MS); // the stalled worker's timers and steps run again, and are refused
    const after = await appendsOf(key.sessionId);
    // A worker stopped between committing an append and logging it logs that line after SIGCONT: such a
    // late line is of an append it committed before the takeover. Anything at or past the takeover is a write.
    const late = after.slice(before.length);
    expect(late.filter((a) => a.label !== 'stop-w1' || a.to > takenAt)).toEqual([]);
    expect(after.filter((a) => a.label === 'stop-w1' && a.from >= takenAt)).toEqual([]);
    expect((await dbos.runs.result(key)).status).toBe('completed');
  });

  dbos.db.it('a run started before a deploy (workers replaced by a new code version) completes after it', async () => {
    const old = dbos.worker({ label: 'deploy-v1', app: 'e2e', latencyMs: 150 });
    await old.ready;
    const key = { appName: 'e2e', userId: 'u1', sessionId: 'deployed-1' };
    await dbos.runs.start({ ...key, input: GRAPH_INPUT });
    await firstAppend(key.sessionId, 'deploy-v1');
    // The deploy stops the old worker mid-run (a graceful stop would first finish what it holds).
    old.child.kill('SIGKILL');
    await old.exited;
    const cut = await dbos.store.get({ appName: 'e2e', userId: 'u1', id: key.sessionId });
    expect(
      cut?.events.some((e) => e.actions?.invocationEnd),
      'the run was cut short by the deploy',
    ).toBe(false);
    const next = dbos.worker({ label: 'deploy-v2', app: 'e2e', latencyMs: 20, variant: 'v2' });
    await next.ready;
    const done = await dbos.runs.result(key);
    expect(done.status).toBe('completed');
    expect((await appendsOf(key.sessionId)).some((a) => a.label === 'deploy-v2')).toBe(true);
  });

  dbos.db.it(
    'a worker killed in the first step, the session deleted before the takeover: the run ends deleted, nothing recreated or rerun',
    async () => {
      const first = dbos.worker({ label: 'first-w1', app: 'slow', toolMs: 60_000 });
      await first.ready;
      const key = { appName: 'slow', userId: 'u1', sessionId: 'first-step-1' };
      const storeKey = { appName: key.appName, userId: key.userId, id: key.sessionId };
      await dbos.runs.start({ ...key, input: 'wait' });
      // The first step is under way: the session exists and its tool runs.
      for (const deadline = Date.now() + 20_000; !(await effectsOf(key.sessionId)).length; await sleep(20))
        if (Date.now() > deadline) throw new Error('the tool never started');
      first.child.kill('SIGKILL');
      await first.exited;
      await dbos.store.delete(storeKey);

      const taker = dbos.worker({ label: 'first-w2', app: 'slow', toolMs: 10 });
      await taker.ready;
      const ended = await dbos.runs.result(key);
      expect(ended.status).toBe('deleted');
      expect(ended.error).toMatchObject({
        name: 'DbosError',
        message: expect.stringMatching(/was deleted while its run was under way/),
      });
      expect(await dbos.store.get(storeKey)).toBeUndefined();
      expect((await effectsOf(key.sessionId)).map((e) => e.label)).toEqual(['first-w1']);
      expect((await appendsOf(key.sessionId)).filter((a) => a.label === 'first-w2')).toEqual([]);
    },
    40_000,
  );
});
