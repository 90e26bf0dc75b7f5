import pg from 'pg';
import { PostgresRunQueue, Worker } from '@replan/postgres';
import { APP, queueApp, type EffectLog } from './queue-app.js';
import type { PostgresFixture } from './use-test-postgres.js';

/** A queue, the app's runner and a raw pool on one fresh schema; `close` ends them all. */
export async function queueSetup(db: PostgresFixture, options: { steps?: number; latencyMs?: number } = {}) {
  const schema = db.freshSchema('queue');
  const effects: EffectLog = [];
  const queue = new PostgresRunQueue({ connectionString: db.connectionString, schema, maxConnections: 4 });
  await queue.migrate();
  const app = queueApp({ connectionString: db.connectionString, schema, effects, ...options });
  const sql = new pg.Pool({ connectionString: db.connectionString, max: 2 });
  const workers: Worker[] = [];
  const worker = (extra: { concurrency?: number; leaseMs?: number; maxAttempts?: number; owner?: string } = {}) => {
    const w = new Worker({ queue, runners: { [APP]: app.runner }, leaseMs: 3_000, ...extra });
    workers.push(w);
    return w;
  };
  const jobs = async () =>
    (
      await sql.query<{ session_id: string; status: string; claim: number; owner: string | null }>(
        `SELECT session_id, status, claim, owner FROM "${schema}".replan_jobs ORDER BY id`,
      )
    ).rows;
  return {
    schema,
    queue,
    app,
    effects,
    sql,
    worker,
    jobs,
    async close() {
      await Promise.all(workers.map((w) => w.stop({ graceMs: 0 })));
      await queue.close();
      await app.store.close();
      await sql.end();
    },
  };
}
