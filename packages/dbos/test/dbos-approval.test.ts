import { join } from 'node:path';
import { describe, expect } from 'vitest';
import { lines, useDbos } from './support/dbos-fixture.js';

const LEASE_MS = 1_000;
const dbos = useDbos({ leaseMs: LEASE_MS });

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
