import { describe, expect } from 'vitest';
import {
  ConfigurationError,
  Runner,
  SessionStoreError,
  toolResultsOf,
  type AgentEvent,
  type AppendOptions,
  type SessionKey,
} from '@replan/core';
import { PostgresRunQueue, Worker } from '@replan/postgres';
import { APP } from './support/queue-app.js';
import { queueSetup } from './support/queue-setup.js';
import { useTestPostgres } from './support/use-test-postgres.js';

const db = useTestPostgres();
const it = db.it;
const user = 'u1';
const setup = (options?: Parameters<typeof queueSetup>[1]) => queueSetup(db, options);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until(what: string, check: () => Promise<boolean> | boolean, timeoutMs = 20_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting until ${what}`);
    await sleep(10);
  }
}

/** Each call id's tool results in the stored session (a call run twice would show twice). */
async function toolResults(t: Awaited<ReturnType<typeof setup>>, id: string): Promise<string[]> {
  const session = await t.app.store.get({ appName: APP, userId: user, id });
  return (session?.events ?? []).flatMap((e) => (e.message?.role === 'tool' ? toolResultsOf(e.message).map((b) => b.toolCallId) : []));
}

describe('Worker', () => {
  it('graceful stop under load: what it holds is finished or handed back, no job lost or run twice', async () => {
    const t = await setup({ steps: 3, latencyMs: 15 });
    try {
      const ids = [];
      for (let i = 0; i < 40; i++) ids.push((await t.queue.submit({ appName: APP, userId: user, input: `job ${i}` })).sessionId);
      const a = t.worker({ concurrency: 4 });
      await a.start();
      await until('a finished some runs', async () => (await t.jobs()).filter((j) => j.status === 'completed').length >= 8);
      expect(a.activeRuns).toBeGreaterThan(0);
      await a.stop({ graceMs: 0 }); // aborts what it holds: back to the queue
      const afterStop = await t.jobs();
      expect(afterStop.filter((j) => j.status === 'running')).toEqual([]);
      const handedBack = afterStop.filter((j) => j.status === 'queued' && j.claim > 0);
      expect(handedBack.length).toBeGreaterThan(0);

      // A graceful stop without a grace period finishes what it holds and claims nothing more.
      const b = t.worker({ concurrency: 2 });
      await b.start();
      await until('b holds two runs', () => b.activeRuns === 2);
      const held = (await t.jobs()).filter((j) => j.status === 'running').map((j) => j.session_id);
      await b.stop();
      const afterGraceful = await t.jobs();
      for (const id of held) expect(afterGraceful.find((j) => j.session_id === id)?.status).toBe('completed');
      expect(afterGraceful.filter((j) => j.status === 'running')).toEqual([]);

      await t.worker({ concurrency: 8 }).start();
      const results = await Promise.all(ids.map((sessionId) => t.queue.waitFor({ appName: APP, userId: user, sessionId })));
      for (const [i, r] of results.entries()) expect(r).toMatchObject({ status: 'completed', output: `done: job ${i}` });
      for (const id of ids) expect(await toolResults(t, id)).toEqual(['r1', 'r2', 'r3']);
      // Each call's side effect happened; a repeat only for a call aborted before its result was stored.
      for (const id of ids) for (const call of ['r1', 'r2', 'r3']) expect(t.effects).toContain(`${id}:${call}`);
      expect(t.effects.length - ids.length * 3).toBeLessThanOrEqual(handedBack.length);
    } finally {
      await t.close();
    }
  });

  it("takes over a crashed worker's run when its lease expires (no NOTIFY needed), redoing no finished tool call", async () => {
    const t = await setup({ steps: 3 });
    try {
      const { sessionId } = await t.queue.submit({ appName: APP, userId: user, input: 'half done' });
      // A worker ran part of it (two model calls: r1 and r2 done), then died holding a live lease.
      const partial = await t.app.runner.resume({ userId: user, sessionId, limits: { maxModelCalls: 2 } }).result();
      expect(partial.status).toBe('budget_exceeded');
      expect(t.effects).toEqual([`${sessionId}:r1`, `${sessionId}:r2`]);
      await t.sql.query(
        `UPDATE "${t.schema}".replan_jobs SET status = 'running', owner = 'dead-worker', claim = claim + 1, attempts = 1,
                heartbeat_at = now(), lease_expires_at = now() + interval '600 milliseconds'`,
      );
      const view = await t.sql.query(`SELECT status, owner, lease_expired, lease_age IS NOT NULL AS aged FROM "${t.schema}".replan_runs`);
      expect(view.rows).toEqual([{ status: 'running', owner: 'dead-worker', lease_expired: false, aged: true }]);
      expect(await t.queue.listRuns()).toEqual([
        expect.objectContaining({
          sessionId,
          status: 'running',
          owner: 'dead-worker',
          leaseExpired: false,
          leaseAgeMs: expect.any(Number),
        }),
      ]);

      const w = t.worker();
      await w.start();
      await sleep(200);
      expect((await t.jobs())[0]).toMatchObject({ status: 'running', owner: 'dead-worker' }); // live lease: left alone
      const result = await t.queue.waitFor({ appName: APP, userId: user, sessionId });
      expect(result).toMatchObject({ status: 'completed', output: 'done: half done' });
      expect(t.effects).toEqual([`${sessionId}:r1`, `${sessionId}:r2`, `${sessionId}:r3`]);
      expect(await toolResults(t, sessionId)).toEqual(['r1', 'r2', 'r3']);
      expect((await t.jobs())[0]).toMatchObject({ status: 'completed', claim: 2 });
      expect((await t.sql.query(`SELECT count(*)::int AS n FROM "${t.schema}".replan_runs`)).rows[0].n).toBe(0);
    } finally {
      await t.close();
    }
  });

  it('a run claimed more than maxAttempts times is failed, listed by replan_runs, and submitResume brings it back', async () => {
    const t = await setup();
    try {
      const { sessionId } = await t.queue.submit({ appName: APP, userId: user, input: 'crash loop' });
      await t.sql.query(`UPDATE "${t.schema}".replan_jobs SET attempts = 3`); // three crashed claims already
      await t.worker({ maxAttempts: 3 }).start();
      const failed = await t.queue.waitFor({ appName: APP, userId: user, sessionId });
      expect(failed.status).toBe('failed');
      expect(failed.error?.name).toBe('RunAttemptsExhaustedError');
      expect(failed.error?.message).toMatch(/started 3 times without finishing/);
      expect(t.effects).toEqual([]);
      const view = await t.sql.query(`SELECT status, run_status, error FROM "${t.schema}".replan_runs`);
      expect(view.rows).toEqual([{ status: 'failed', run_status: 'failed', error: expect.stringMatching(/gave up/) }]);
      expect(await t.queue.listRuns({ appName: APP })).toEqual([
        expect.objectContaining({
          sessionId,
          status: 'failed',
          runStatus: 'failed',
          attempts: 4,
          leaseExpired: false,
          error: expect.stringMatching(/gave up/),
        }),
      ]);
      expect(await t.queue.listRuns({ statuses: ['queued', 'running'] })).toEqual([]);
      await expect(t.queue.listRuns({ limit: 0 })).rejects.toThrow(/limit must be an integer from 1 to 1000/);
      await t.queue.submitResume({ appName: APP, userId: user, sessionId });
      await expect(t.queue.waitFor({ appName: APP, userId: user, sessionId })).resolves.toMatchObject({ status: 'completed' });
    } finally {
      await t.close();
    }
  });

  it('a run that failed on a lost database connection is retried by resuming it, not failed for good', async () => {
    const t = await setup();
    try {
      let failures = 0;
      // The first append of a tool result fails as a dropped connection would (nothing written).
      const flaky = new Proxy(t.app.store, {
        get(target, prop, receiver) {
          if (prop === 'appendEvents')
            return (key: SessionKey, events: readonly AgentEvent[], options: AppendOptions) => {
              if (failures === 0 && events.some((e) => e.message?.role === 'tool')) {
                failures++;
                return Promise.reject(new SessionStoreError('connection terminated unexpectedly', { kind: 'connection' }));
              }
              return target.appendEvents(key, events, options);
            };
          const value = Reflect.get(target, prop, receiver);
          return typeof value === 'function' ? value.bind(target) : value;
        },
      });
      const runner = new Runner({ appName: APP, agent: t.app.runner.agent, sessionStore: flaky });
      const { sessionId } = await t.queue.submit({ appName: APP, userId: user, input: 'flaky' });
      const w = new Worker({ queue: t.queue, runners: { [APP]: runner }, leaseMs: 3_000, onError: () => undefined });
      await w.start();
      try {
        await expect(t.queue.waitFor({ appName: APP, userId: user, sessionId })).resolves.toMatchObject({
          status: 'completed',
          output: 'done: flaky',
        });
      } finally {
        await w.stop();
      }
      expect(failures).toBe(1);
      expect((await t.jobs())[0]).toMatchObject({ status: 'completed', claim: 2 });
      expect(await toolResults(t, sessionId)).toEqual(['r1', 'r2']);
    } finally {
      await t.close();
    }
  });

  it('refuses bad options with a ConfigurationError saying what to pass', async () => {
    const t = await setup();
    try {
      const runner = t.app.runner;
      const bad = (options: object) => () => new Worker({ queue: t.queue, runners: { [APP]: runner }, ...options } as never);
      expect(bad({ runners: {} })).toThrow(/at least one runner/);
      expect(bad({ runners: { other: runner } })).toThrow(/appName is "other"/);
      expect(bad({ concurrency: 0 })).toThrow(ConfigurationError);
      expect(bad({ leaseMs: 10 })).toThrow(/at least 30 ms/);
      expect(bad({ queue: {} })).toThrow(/needs a PostgresRunQueue/);
      expect(() => new PostgresRunQueue({} as never)).toThrow(/exactly one of/);
      const w = t.worker();
      await w.start();
      await expect(w.start()).rejects.toThrow(/already started/);
      // No database: start() fails with the connection error, and may be tried again.
      const nowhere = new PostgresRunQueue({ connectionString: 'postgresql://postgres@127.0.0.1:1/postgres' });
      const offline = new Worker({ queue: nowhere, runners: { [APP]: runner } });
      for (let i = 0; i < 2; i++) await expect(offline.start()).rejects.toMatchObject({ name: 'SessionStoreError', kind: 'connection' });
      await nowhere.close();
    } finally {
      await t.close();
    }
  });
});
