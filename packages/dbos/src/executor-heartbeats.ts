import { hostname } from 'node:os';
import type pg from 'pg';
import { createTableIfMissing, schemaTable } from './sql-names.js';

/**
 * One row per DBOS executor (worker process) in the DBOS system database, beaten every third of
 * `leaseMs`: the liveness signal of a worker whose runs hold no session lease (a run waiting for a
 * human in `DBOS.recv`). A row older than `leaseMs`, or whose process is gone on this host, is a
 * dead executor.
 */
export class ExecutorHeartbeats {
  readonly host = hostname();
  private readonly table: string;

  constructor(
    private readonly pool: pg.Pool,
    schema: string,
    private readonly executorId: string,
  ) {
    this.table = schemaTable(schema, 'replan_executors');
  }

  /** Creates the table when missing. */
  async migrate(): Promise<void> {
    await createTableIfMissing(
      this.pool,
      `CREATE TABLE IF NOT EXISTS ${this.table} (
           executor_id text PRIMARY KEY,
           host text NOT NULL,
           pid integer NOT NULL,
           beat_at timestamptz NOT NULL DEFAULT now())`,
    );
  }

  async beat(): Promise<void> {
    await this.pool.query(
      `INSERT INTO ${this.table} (executor_id, host, pid, beat_at) VALUES ($1, $2, $3, now())
       ON CONFLICT (executor_id) DO UPDATE SET beat_at = now(), host = $2, pid = $3`,
      [this.executorId, this.host, process.pid],
    );
  }

  /** This executor leaves: its row goes, and with it any claim to be alive. */
  async leave(): Promise<void> {
    await this.pool.query(`DELETE FROM ${this.table} WHERE executor_id = $1`, [this.executorId]);
  }

  /** Executors of this host whose process is gone: dead at once, without waiting for their beat to expire. */
  async goneOnThisHost(): Promise<string[]> {
    const { rows } = await this.pool.query<{ executor_id: string; pid: number }>(
      `SELECT executor_id, pid FROM ${this.table} WHERE host = $1 AND executor_id <> $2`,
      [this.host, this.executorId],
    );
    return rows.filter((r) => !processAlive(r.pid)).map((r) => r.executor_id);
  }

  /** The SQL name of the table, for the takeover query. */
  get tableName(): string {
    return this.table;
  }
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as { code?: string }).code === 'EPERM'; // alive, someone else's
  }
}
