import type pg from 'pg';
import type { Dbos } from './load-dbos-sdk.js';
import type { ExecutorHeartbeats } from './executor-heartbeats.js';
import { RUN_WORKFLOW } from './run-ids.js';

/** An advisory lock key: one takeover sweep at a time across all workers. */
const SWEEP_LOCK = 0x7265706c; // "repl"

export interface TakeoverOptions {
  readonly dbos: Dbos;
  readonly pool: pg.Pool;
  readonly schema: string;
  readonly heartbeats: ExecutorHeartbeats;
  readonly executorId: string;
  readonly queues: readonly string[];
  readonly leaseMs: number;
}

/**
 * Finds this app's runs held by dead executors (heartbeat older than `leaseMs`, none at all, or a
 * process gone on this host) and hands them back to their queue with `DBOS.resumeWorkflows`, where
 * a live worker picks them up and replays them from their last finished step. One sweep at a time
 * (a transaction-scoped advisory lock), so a run is handed over once. Returns the runs handed over.
 */
export async function takeOverDeadRuns(options: TakeoverOptions): Promise<string[]> {
  const { pool, heartbeats } = options;
  const gone = await heartbeats.goneOnThisHost();
  const client = await pool.connect();
  let taken: string[] = [];
  try {
    await client.query('BEGIN');
    // A sweeper that stalls (SIGSTOP) holding the lock must not block the others for long.
    await client.query(`SET LOCAL idle_in_transaction_session_timeout = ${Math.max(1_000, options.leaseMs)}`);
    const { rows: lock } = await client.query<{ ok: boolean }>('SELECT pg_try_advisory_xact_lock($1) AS ok', [SWEEP_LOCK]);
    if (!lock[0]?.ok) {
      await client.query('ROLLBACK');
      return [];
    }
    const schema = `"${options.schema.replace(/"/g, '""')}"`;
    const { rows } = await client.query<{ workflow_uuid: string; queue_name: string }>(
      `SELECT w.workflow_uuid, w.queue_name FROM ${schema}.workflow_status w
         LEFT JOIN ${heartbeats.tableName} e ON e.executor_id = w.executor_id
        WHERE w.status = 'PENDING' AND w.name = $1 AND w.queue_name = ANY($2) AND w.executor_id <> $3
          AND (e.executor_id IS NULL OR e.beat_at < now() - make_interval(secs => $4::double precision / 1000)
               OR e.executor_id = ANY($5))`,
      [RUN_WORKFLOW, options.queues, options.executorId, options.leaseMs, gone],
    );
    const byQueue = new Map<string, string[]>();
    for (const r of rows) byQueue.set(r.queue_name, [...(byQueue.get(r.queue_name) ?? []), r.workflow_uuid]);
    // Still under the lock: no other sweep sees these PENDING under a dead executor meanwhile.
    for (const [queueName, ids] of byQueue) await options.dbos.resumeWorkflows(ids, { queueName });
    taken = rows.map((r) => r.workflow_uuid);
    if (gone.length) await client.query(`DELETE FROM ${heartbeats.tableName} WHERE executor_id = ANY($1)`, [gone]);
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
  return taken;
}
