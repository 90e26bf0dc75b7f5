import pg from 'pg';
import { describe, expect } from 'vitest';
import { SessionExistsError, type AgentEvent } from '@replan/core';
import { DbosError } from '@replan/dbos';
import { useDbos } from './support/dbos-fixture.js';
import { GRAPH_INPUT } from './support/graph-input.js';

const dbos = useDbos({ leaseMs: 1_000 });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('dbosRuns: start, events, cancel', () => {
  dbos.db.it('a start for a session that exists is refused (SessionExistsError) and nothing is enqueued', async () => {
    const key = { appName: 'approve', userId: 'u1', id: 'existing-1' };
    await dbos.store.create(key);
    await expect(dbos.runs.start({ appName: 'approve', userId: 'u1', sessionId: 'existing-1', input: 'hi' })).rejects.toBeInstanceOf(
      SessionExistsError,
    );
    await expect(dbos.runs.result({ appName: 'approve', userId: 'u1', sessionId: 'existing-1' })).rejects.toBeInstanceOf(DbosError);
    // A second start of a run already enqueued (its session not yet created) is refused too.
    await dbos.runs.start({ appName: 'approve', userId: 'u1', sessionId: 'queued-1', input: 'hi' });
    await expect(dbos.runs.start({ appName: 'approve', userId: 'u1', sessionId: 'queued-1', input: 'hi' })).rejects.toBeInstanceOf(
      SessionExistsError,
    );
  });

  dbos.db.it('of two concurrent starts of one session, exactly one enqueues; the other is refused with SessionExistsError', async () => {
    const { DBOS } = await import('@dbos-inc/dbos-sdk');
    for (let i = 0; i < 5; i++) {
      const sessionId = `race-${i}`;
      // Both pass the "does it exist" check before either enqueues.
      const settled = await Promise.allSettled(
        ['first', 'second'].map((input) => dbos.runs.start({ appName: 'approve', userId: 'u1', sessionId, input })),
      );
      const won = settled.flatMap((r, n) => (r.status === 'fulfilled' ? [n] : []));
      expect(won, `${sessionId}: one start resolved`).toHaveLength(1);
      const lost = settled[1 - won[0]!]!;
      expect(lost.status === 'rejected' && lost.reason, `${sessionId}: the other was refused`).toBeInstanceOf(SessionExistsError);
      // One workflow, and it runs the winner's input.
      const workflows = await DBOS.listWorkflows({ workflow_id_prefix: `replan/approve/u1/${sessionId}`, loadInput: true });
      expect(workflows).toHaveLength(1);
      expect((workflows[0]!.input as [{ input: string }] | undefined)?.[0]?.input).toBe(['first', 'second'][won[0]!]);
    }
  });

  dbos.db.it('a workflow DBOS ended with no recorded error (too many recovery attempts) is a failed result that says so', async () => {
    const key = { appName: 'approve', userId: 'u1', sessionId: 'no-error-1' };
    await dbos.runs.start({ ...key, input: 'hi' }); // no worker for the app here: it stays in its queue
    const client = new pg.Client({ connectionString: dbos.systemDatabaseUrl });
    await client.connect();
    try {
      await client.query(
        `UPDATE dbos.workflow_status SET status = 'MAX_RECOVERY_ATTEMPTS_EXCEEDED', error = NULL WHERE workflow_uuid = $1`,
        ['replan/approve/u1/no-error-1'],
      );
    } finally {
      await client.end();
    }
    const result = await dbos.runs.result(key);
    expect(result.status).toBe('failed');
    expect(result.error).toEqual({
      name: 'DbosWorkflowError',
      message: "DBOS ended the run's workflow with status MAX_RECOVERY_ATTEMPTS_EXCEEDED and recorded no error.",
    });
  });

  dbos.db.it('a run of an app no worker serves waits in its queue, and runs once a worker for it starts', async () => {
    const other = dbos.worker({ label: 'runs-approve', app: 'approve' });
    await other.ready;
    const key = { appName: 'e2e', userId: 'u1', sessionId: 'waits-1' };
    await dbos.runs.start({ ...key, input: GRAPH_INPUT });
    await sleep(1_000);
    expect(await dbos.store.get({ appName: 'e2e', userId: 'u1', id: 'waits-1' })).toBeUndefined();
    const worker = dbos.worker({ label: 'runs-e2e', app: 'e2e' });
    await worker.ready;
    expect((await dbos.runs.result(key)).status).toBe('completed');
  });

  dbos.db.it('events() follows the run live from the log: every stored event, in order, once', async () => {
    const worker = dbos.worker({ label: 'events-w1', app: 'e2e', latencyMs: 40 });
    await worker.ready;
    const key = { appName: 'e2e', userId: 'u1', sessionId: 'events-1' };
    await dbos.runs.start({ ...key, input: GRAPH_INPUT });
    const seen: AgentEvent[] = [];
    for await (const event of dbos.runs.events(key)) seen.push(event);
    const stored = (await dbos.store.get({ appName: 'e2e', userId: 'u1', id: 'events-1' }))!.events;
    expect(seen.map((e) => e.id)).toEqual(stored.map((e) => e.id));
    expect(stored.at(-1)?.actions?.invocationEnd?.status).toBe('completed');
  });

  dbos.db.it('cancel() stops a run under way: status cancelled, no invocation completes after it', async () => {
    const worker = dbos.worker({ label: 'cancel-w1', app: 'e2e', latencyMs: 300 });
    await worker.ready;
    const key = { appName: 'e2e', userId: 'u1', sessionId: 'cancel-1' };
    await dbos.runs.start({ ...key, input: GRAPH_INPUT });
    while (!(await dbos.store.get({ appName: 'e2e', userId: 'u1', id: 'cancel-1' }))) await sleep(20);
    await dbos.runs.cancel(key);
    expect((await dbos.runs.result(key)).status).toBe('cancelled');
    await sleep(1_000);
    const stored = (await dbos.store.get({ appName: 'e2e', userId: 'u1', id: 'cancel-1' }))!.events;
    expect(stored.some((e) => e.actions?.invocationEnd?.status === 'completed')).toBe(false);
  });
});
