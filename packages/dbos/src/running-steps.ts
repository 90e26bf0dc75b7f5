import type pg from 'pg';
import { createTableIfMissing, schemaTable } from './sql-names.js';

/**
 * One row per run step in flight, in the DBOS system database: the workflow, the executor running
 * its step, and when that executor last said the step still runs (refreshed at every cancel check,
 * a third of `leaseMs` at most). `runs.delete` cancels the run, then waits until no fresh row is
 * left (the step saw the cancel and stopped, or its executor went silent for `leaseMs`) before it
 * deletes the session: a step that has not yet seen the cancel cannot write to, or create, the
 * session after `delete` resolved.
 */
export class RunningSteps {
  private readonly table: string;

  constructor(
    private readonly pool: pg.Pool,
    schema: string,
  ) {
    this.table = schemaTable(schema, 'replan_running_steps');
  }

  /** Creates the table when missing. */
  async migrate(): Promise<void> {
    await createTableIfMissing(
      this.pool,
      `CREATE TABLE IF NOT EXISTS ${this.table} (
           workflow_uuid text NOT NULL,
           executor_id text NOT NULL,
           beat_at timestamptz NOT NULL DEFAULT now(),
           PRIMARY KEY (workflow_uuid, executor_id))`,
    );
  }

  /** The step starts (or, at a cancel check, still runs). */
  async beat(workflowId: string, executorId: string): Promise<void> {
    await this.pool.query(
      `INSERT INTO ${this.table} (workflow_uuid, executor_id, beat_at) VALUES ($1, $2, now())
       ON CONFLICT (workflow_uuid, executor_id) DO UPDATE SET beat_at = now()`,
      [workflowId, executorId],
    );
  }

  /** The step stopped. */
  async leave(workflowId: string, executorId: string): Promise<void> {
    await this.pool.query(`DELETE FROM ${this.table} WHERE workflow_uuid = $1 AND executor_id = $2`, [workflowId, executorId]);
  }

  /** Whether a step of the workflow runs: a row refreshed within `leaseMs`. */
  async running(workflowId: string, leaseMs: number): Promise<boolean> {
    const { rowCount } = await this.pool.query(
      `SELECT 1 FROM ${this.table}
        WHERE workflow_uuid = $1 AND beat_at > now() - make_interval(secs => $2::double precision / 1000)`,
      [workflowId, leaseMs],
    );
    return (rowCount ?? 0) > 0;
  }
}
