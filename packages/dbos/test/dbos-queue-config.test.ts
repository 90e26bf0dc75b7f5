import pg from 'pg';
import { describe, expect } from 'vitest';
import { useDbos } from './support/dbos-fixture.js';
import { GRAPH_INPUT } from './support/graph-input.js';

const dbos = useDbos({ leaseMs: 1_000 });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("DBOS queue configuration shared by a queue's processes", () => {
  dbos.db.it('a producer launched after the workers keeps their per-worker concurrency (it never overrides it)', async () => {
    const workers = ['limit-w1', 'limit-w2'].map((label) => dbos.worker({ label, app: 'e2e', latencyMs: 100, concurrency: 1 }));
    await Promise.all(workers.map((w) => w.ready));
    // The producer (this process, `worker: false`, default concurrency 4) launches after the workers.
    await dbos.runs.shutdown();
    await dbos.runs.launch({ systemDatabaseUrl: dbos.systemDatabaseUrl, worker: false });

    const keys = Array.from({ length: 6 }, (_, i) => ({ appName: 'e2e', userId: 'u1', sessionId: `limited-${i}` }));
    for (const key of keys) await dbos.runs.start({ ...key, input: GRAPH_INPUT });

    const pool = new pg.Pool({ connectionString: dbos.systemDatabaseUrl, max: 1 });
    const most = new Map<string, number>();
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        const { rows } = await pool.query<{ executor_id: string; n: number }>(
          `SELECT executor_id, count(*)::int AS n FROM dbos.workflow_status WHERE status = 'PENDING' GROUP BY executor_id`,
        );
        for (const { executor_id, n } of rows) most.set(executor_id, Math.max(most.get(executor_id) ?? 0, n));
        await sleep(50);
      }
    })();
    try {
      const done = await Promise.all(keys.map((key) => dbos.runs.result(key)));
      expect(done.map((d) => d.status)).toEqual(keys.map(() => 'completed'));
    } finally {
      sampling = false;
      await sampler;
      await pool.end();
    }
    // Both workers drove runs, and neither ever more than one at once.
    expect([...most.keys()].sort()).toEqual(['limit-w1', 'limit-w2']);
    expect(Object.fromEntries(most)).toEqual({ 'limit-w1': 1, 'limit-w2': 1 });
  });
});

describe('DBOS pickup by an idle worker', () => {
  // Pickup latency itself is measured in bench/dbos-workers.ts (docs/performance.md): a test asserts
  // the setting that bounds it, which a loaded CI machine cannot make flaky.
  dbos.db.it('a worker registers its queue polled every pickupPollMs (default 15 ms, was 50), and its runs are picked up', async () => {
    const worker = dbos.worker({ label: 'pickup-w1', app: 'e2e' });
    await worker.ready;
    const key = { appName: 'e2e', userId: 'u1', sessionId: 'pickup-1' };
    await dbos.runs.start({ ...key, input: GRAPH_INPUT });
    expect((await dbos.runs.result(key)).status).toBe('completed');
    const pool = new pg.Pool({ connectionString: dbos.systemDatabaseUrl, max: 1 });
    try {
      const { rows } = await pool.query<{ polling_interval_sec: number }>(`SELECT polling_interval_sec FROM dbos.queues WHERE name = $1`, [
        'replan.e2e',
      ]);
      expect(rows.map((r) => Number(r.polling_interval_sec) * 1000)).toEqual([15]);
    } finally {
      await pool.end();
    }
  });
});
