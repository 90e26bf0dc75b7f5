import { describe, expect } from 'vitest';
import { InvalidArgumentError, SessionExistsError, SessionStoreError, UnknownInterruptError } from '@replan/core';
import { RunInProgressError, RunNotQueuedError, RunQueueClosedError, RunSessionDeletedError } from '@replan/postgres';
import { APP } from './support/queue-app.js';
import { queueSetup } from './support/queue-setup.js';
import { useTestPostgres } from './support/use-test-postgres.js';

const db = useTestPostgres();
const it = db.it;
const user = 'u1';
const setup = (options?: Parameters<typeof queueSetup>[1]) => queueSetup(db, options);

describe('PostgresRunQueue: submit', () => {
  it('creates the session with its input and a queued job; a failing submit leaves neither', async () => {
    const t = await setup();
    try {
      const { sessionId } = await t.queue.submit({ appName: APP, userId: user, input: 'first', priority: 3 });
      const session = await t.app.store.get({ appName: APP, userId: user, id: sessionId });
      expect(session?.events.map((e) => [e.author, e.message?.content])).toEqual([['user', [{ type: 'text', text: 'first' }]]]);
      expect(await t.jobs()).toEqual([{ session_id: sessionId, status: 'queued', claim: 0, owner: null }]);

      // The job insert fails after the session row was written: the transaction takes both back.
      await t.sql.query(
        `CREATE FUNCTION "${t.schema}".refuse() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'no jobs today'; END $$`,
      );
      await t.sql.query(
        `CREATE TRIGGER refuse BEFORE INSERT ON "${t.schema}".replan_jobs FOR EACH ROW EXECUTE FUNCTION "${t.schema}".refuse()`,
      );
      const failed = t.queue.submit({ appName: APP, userId: user, sessionId: 'doomed', input: 'second' });
      await expect(failed).rejects.toBeInstanceOf(SessionStoreError);
      await expect(failed).rejects.toThrow(/no jobs today/);
      expect(await t.app.store.get({ appName: APP, userId: user, id: 'doomed' })).toBeUndefined();
      expect(await t.jobs()).toHaveLength(1);
      await t.sql.query(`DROP TRIGGER refuse ON "${t.schema}".replan_jobs`);

      // An existing session id is refused; the session keeps its one event and gets no second job.
      await expect(t.queue.submit({ appName: APP, userId: user, sessionId, input: 'again' })).rejects.toBeInstanceOf(SessionExistsError);
      expect((await t.app.store.get({ appName: APP, userId: user, id: sessionId }))?.version).toBe(1);
      // Bad ids, priorities and state are refused before anything is written.
      await expect(t.queue.submit({ appName: APP, userId: '', input: 'x' })).rejects.toBeInstanceOf(InvalidArgumentError);
      await expect(t.queue.submit({ appName: APP, userId: user, input: 'x', priority: 1.5 })).rejects.toThrow(
        /priority must be a 32-bit integer/,
      );
      await expect(t.queue.submit({ appName: APP, userId: user, input: 'x', state: { f: () => 1 } })).rejects.toThrow(/JSON/);
      expect(await t.jobs()).toHaveLength(1);
    } finally {
      await t.close();
    }
  });
});

describe('PostgresRunQueue: waitFor and submitResume', () => {
  it('waitFor wakes when a worker finishes the run (NOTIFY) and returns its RunResult', async () => {
    const t = await setup({ latencyMs: 5 });
    try {
      const { sessionId } = await t.queue.submit({ appName: APP, userId: user, input: 'hello' });
      let settled = false;
      const waiting = t.queue.waitFor({ appName: APP, userId: user, sessionId }).finally(() => (settled = true));
      await new Promise((r) => setTimeout(r, 100));
      expect(settled).toBe(false); // no worker yet: still queued
      await t.worker().start();
      const result = await waiting;
      expect(result).toMatchObject({ status: 'completed', output: 'done: hello', sessionId, modelCalls: 3, interrupts: [] });
      expect(result.usage.inputTokens).toBeGreaterThan(0);
      // The whole RunResult survives the job row: breakdown by agent and the session's totals.
      expect(result.breakdown.byAgent.agent).toMatchObject({ modelCalls: 3, usage: result.usage });
      expect(result.session).toEqual({ usage: result.usage, modelCalls: 3, cost: 0, unpricedModelCalls: 3 }); // the runner has no prices
      expect(t.effects).toEqual([`${sessionId}:r1`, `${sessionId}:r2`]);
      expect(await t.jobs()).toEqual([expect.objectContaining({ status: 'completed', owner: null, claim: 1 })]);
      // Asked again after the end: answered from the row at once.
      await expect(t.queue.waitFor({ appName: APP, userId: user, sessionId })).resolves.toMatchObject({
        status: 'completed',
        output: 'done: hello',
      });
    } finally {
      await t.close();
    }
  });

  it('an interrupted run leaves the queue until submitResume brings it back with the answer', async () => {
    const t = await setup();
    try {
      await t.worker().start();
      const { sessionId } = await t.queue.submit({ appName: APP, userId: user, input: 'approve me', state: { needsApproval: true } });
      const stopped = await t.queue.waitFor({ appName: APP, userId: user, sessionId });
      expect(stopped.status).toBe('interrupted');
      expect(stopped.interrupts).toEqual([expect.objectContaining({ id: 'r1:approval', reason: 'approval', toolName: 'record' })]);
      expect(t.effects).toEqual([]);
      const view = await t.sql.query(`SELECT status, run_status, owner FROM "${t.schema}".replan_runs WHERE session_id = $1`, [sessionId]);
      expect(view.rows).toEqual([{ status: 'interrupted', run_status: 'interrupted', owner: null }]);

      // A wrong interrupt id is refused at once, and the run stays interrupted.
      await expect(t.queue.submitResume({ appName: APP, userId: user, sessionId, values: { nope: true } })).rejects.toBeInstanceOf(
        UnknownInterruptError,
      );
      expect((await t.jobs())[0]?.status).toBe('interrupted');

      await t.queue.submitResume({ appName: APP, userId: user, sessionId, values: { 'r1:approval': true } });
      await expect(t.queue.submitResume({ appName: APP, userId: user, sessionId })).rejects.toBeInstanceOf(RunInProgressError);
      const second = await t.queue.waitFor({ appName: APP, userId: user, sessionId });
      // The approval for r2 is asked next (the tool needs approval every time).
      expect(second.status).toBe('interrupted');
      expect(second.interrupts.map((i) => i.id)).toEqual(['r2:approval']);
      expect(t.effects).toEqual([`${sessionId}:r1`]);
      await t.queue.submitResume({ appName: APP, userId: user, sessionId, values: { 'r2:approval': true } });
      await expect(t.queue.waitFor({ appName: APP, userId: user, sessionId })).resolves.toMatchObject({
        status: 'completed',
        output: 'done: approve me',
      });
      expect(t.effects).toEqual([`${sessionId}:r1`, `${sessionId}:r2`]);
    } finally {
      await t.close();
    }
  });

  it('waitFor: a session never queued is RunNotQueuedError; an abort stops the wait with its reason', async () => {
    const t = await setup();
    try {
      await expect(t.queue.waitFor({ appName: APP, userId: user, sessionId: 'nobody' })).rejects.toBeInstanceOf(RunNotQueuedError);
      await expect(t.queue.submitResume({ appName: APP, userId: user, sessionId: 'nobody' })).rejects.toThrow(/No session "nobody"/);
      const { sessionId } = await t.queue.submit({ appName: APP, userId: user, input: 'never run' });
      const controller = new AbortController();
      const waiting = t.queue.waitFor({ appName: APP, userId: user, sessionId, signal: controller.signal });
      const reason = new Error('gave up');
      setTimeout(() => controller.abort(reason), 50);
      await expect(waiting).rejects.toBe(reason);
      expect((await t.jobs())[0]?.status).toBe('queued'); // the run itself is untouched
      // Closing the queue ends a pending wait with a typed error; the run stays queued.
      const pending = t.queue.waitFor({ appName: APP, userId: user, sessionId });
      await new Promise((r) => setTimeout(r, 50));
      await t.queue.close();
      await expect(pending).rejects.toBeInstanceOf(RunQueueClosedError);
      expect((await t.jobs())[0]?.status).toBe('queued');
    } finally {
      await t.close();
    }
  });

  it('waitFor on a session deleted meanwhile ends with RunSessionDeletedError (woken by the delete, no polling)', async () => {
    const t = await setup();
    try {
      const { sessionId } = await t.queue.submit({ appName: APP, userId: user, input: 'never run' });
      const other = await t.queue.submit({ appName: APP, userId: user, input: 'kept' });
      // Handled at once: the delete's NOTIFY may reject it before `await delete` returns.
      const waiting = t.queue.waitFor({ appName: APP, userId: user, sessionId }).then(
        () => undefined,
        (e: unknown) => e,
      );
      const otherWaiting = t.queue.waitFor({ appName: APP, userId: user, sessionId: other.sessionId });
      let otherSettled = false;
      void otherWaiting.then(
        () => (otherSettled = true),
        () => (otherSettled = true),
      );
      await new Promise((r) => setTimeout(r, 50));
      await t.app.store.delete({ appName: APP, userId: user, id: sessionId });
      const error = await waiting;
      expect(error).toBeInstanceOf(RunSessionDeletedError);
      expect((error as Error).message).toMatch(/was deleted while waiting/);
      expect(await t.jobs()).toEqual([expect.objectContaining({ session_id: other.sessionId, status: 'queued' })]);
      await new Promise((r) => setTimeout(r, 50));
      expect(otherSettled).toBe(false); // the other session's wait goes on
    } finally {
      await t.close();
    }
  });
});
