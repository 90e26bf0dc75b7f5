import type pg from 'pg';
import { ConfigurationError } from '@replan/core';
import type { Tables } from '../sql-names.js';

/** A run as the `replan_runs` view shows it (every run that is not completed). */
export interface QueuedRunSummary {
  readonly appName: string;
  readonly userId: string;
  readonly sessionId: string;
  readonly status: 'queued' | 'running' | 'interrupted' | 'failed';
  readonly priority: number;
  /** The worker holding it (running runs). */
  readonly owner?: string;
  /** Claims since it was last submitted. */
  readonly attempts: number;
  /** Ms since its holder's last heartbeat (running runs). */
  readonly leaseAgeMs?: number;
  /** Its lease expired without renewal: a takeover is due. */
  readonly leaseExpired: boolean;
  /** The run's own status (`failed`, `budget_exceeded`, …) and error message, once it stopped. */
  readonly runStatus?: string;
  readonly error?: string;
  readonly createdAt: Date;
}

export interface ListRunsInput {
  readonly appName?: string;
  readonly statuses?: readonly QueuedRunSummary['status'][];
  /** At most this many, oldest first (default 100, at most 1000). */
  readonly limit?: number;
}

const STATUSES = ['queued', 'running', 'interrupted', 'failed'];

interface Row {
  app_name: string;
  user_id: string;
  session_id: string;
  status: QueuedRunSummary['status'];
  priority: number;
  owner: string | null;
  attempts: number;
  lease_age_ms: number | null;
  lease_expired: boolean | null;
  run_status: string | null;
  error: string | null;
  created_at: Date;
}

/** Reads `replan_runs`: what an operator wants to see (the same as `SELECT * FROM replan_runs`). */
export async function listRuns(pool: pg.Pool, tables: Tables, input: ListRunsInput): Promise<QueuedRunSummary[]> {
  const limit = input.limit ?? 100;
  if (!Number.isInteger(limit) || limit < 1 || limit > 1000)
    throw new ConfigurationError(`listRuns limit must be an integer from 1 to 1000, got ${String(limit)}.`);
  const statuses = input.statuses ?? STATUSES;
  for (const s of statuses)
    if (!STATUSES.includes(s)) throw new ConfigurationError(`listRuns statuses are ${STATUSES.join(', ')}; got ${JSON.stringify(s)}.`);
  const { rows } = await pool.query<Row>(
    `SELECT app_name, user_id, session_id, status, priority, owner, attempts,
            extract(epoch FROM lease_age) * 1000 AS lease_age_ms, lease_expired, run_status, error, created_at
     FROM ${tables.runsView}
     WHERE status = ANY($1::text[]) AND ($2::text IS NULL OR app_name = $2)
     ORDER BY created_at, job_id LIMIT $3`,
    [statuses, input.appName ?? null, limit],
  );
  return rows.map((r) => ({
    appName: r.app_name,
    userId: r.user_id,
    sessionId: r.session_id,
    status: r.status,
    priority: r.priority,
    ...(r.owner !== null && r.status === 'running' ? { owner: r.owner } : {}),
    attempts: r.attempts,
    ...(r.lease_age_ms !== null && r.status === 'running' ? { leaseAgeMs: Number(r.lease_age_ms) } : {}),
    leaseExpired: r.lease_expired === true,
    ...(r.run_status !== null ? { runStatus: r.run_status } : {}),
    ...(r.error !== null ? { error: r.error } : {}),
    createdAt: r.created_at,
  }));
}
