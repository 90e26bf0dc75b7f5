import type pg from 'pg';
import type { Tables } from '../sql-names.js';

/** A job a worker claimed: `claim` fences every later update of the row to this claim. */
export interface ClaimedJob {
  readonly id: string;
  readonly claim: number;
  readonly appName: string;
  readonly userId: string;
  readonly sessionId: string;
  readonly resumeValues: Readonly<Record<string, unknown>> | undefined;
  readonly attempts: number;
}

interface ClaimRow {
  id: string;
  claim: number;
  app_name: string;
  user_id: string;
  session_id: string;
  resume_values: Record<string, unknown> | null;
  attempts: number;
}

const leaseUntil = (param: string) => `now() + ${param} * interval '1 millisecond'`;

/**
 * Claims up to `limit` jobs of the given apps: queued ones that are due, and running ones whose
 * lease expired (their worker crashed or stalled; this is the takeover). `FOR UPDATE SKIP LOCKED`
 * lets many workers claim at once without waiting on each other or taking the same row.
 */
export async function claimJobs(
  pool: pg.Pool,
  tables: Tables,
  claim: { owner: string; leaseMs: number; apps: readonly string[]; limit: number },
): Promise<ClaimedJob[]> {
  const { rows } = await pool.query<ClaimRow>(
    `UPDATE ${tables.jobs} j
     SET status = 'running', owner = $1, claim = j.claim + 1, attempts = j.attempts + 1,
         lease_expires_at = ${leaseUntil('$2')}, heartbeat_at = now(), claimed_at = now(),
         started_at = coalesce(j.started_at, now()), updated_at = now()
     FROM (
       SELECT id FROM ${tables.jobs}
       WHERE app_name = ANY($3::text[])
         AND ((status = 'queued' AND run_after <= now()) OR (status = 'running' AND lease_expires_at < now()))
       ORDER BY priority DESC, id
       LIMIT $4
       FOR UPDATE SKIP LOCKED
     ) due
     WHERE j.id = due.id
     RETURNING j.id, j.claim, j.app_name, j.user_id, j.session_id, j.resume_values, j.attempts`,
    [claim.owner, claim.leaseMs, claim.apps, claim.limit],
  );
  return rows.map((r) => ({
    id: String(r.id),
    claim: r.claim,
    appName: r.app_name,
    userId: r.user_id,
    sessionId: r.session_id,
    resumeValues: r.resume_values ?? undefined,
    attempts: r.attempts,
  }));
}

/** Extends the leases of jobs still held by this claim; returns the ids that were renewed. */
export async function renewJobs(
  pool: pg.Pool,
  tables: Tables,
  leaseMs: number,
  held: readonly Pick<ClaimedJob, 'id' | 'claim'>[],
): Promise<Set<string>> {
  if (!held.length) return new Set();
  const { rows } = await pool.query<{ id: string }>(
    `UPDATE ${tables.jobs} j SET lease_expires_at = ${leaseUntil('$1')}, heartbeat_at = now()
     FROM unnest($2::bigint[], $3::int[]) AS h(id, claim)
     WHERE j.id = h.id AND j.claim = h.claim AND j.status = 'running'
     RETURNING j.id`,
    [leaseMs, held.map((j) => j.id), held.map((j) => j.claim)],
  );
  return new Set(rows.map((r) => String(r.id)));
}

/**
 * Records a run's outcome if this claim still holds the job, and tells `waitFor` (NOTIFY on the
 * done channel, sent when the statement commits). False when the job was taken over meanwhile.
 */
export async function finishJob(
  pool: pg.Pool,
  tables: Tables,
  job: Pick<ClaimedJob, 'id' | 'claim'>,
  status: 'completed' | 'interrupted' | 'failed',
  result: string,
): Promise<boolean> {
  const { rows } = await pool.query(
    `WITH done AS (
       UPDATE ${tables.jobs} SET status = $3, result = $4::json, owner = NULL, lease_expires_at = NULL,
              resume_values = NULL, finished_at = now(), updated_at = now()
       WHERE id = $1 AND claim = $2 AND status = 'running'
       RETURNING id)
     SELECT pg_notify($5, id::text) FROM done`,
    [job.id, job.claim, status, result, tables.doneChannel],
  );
  return rows.length > 0;
}

/**
 * Puts a held job back in the queue (a stopping worker's, or one whose session is busy), due in
 * `delayMs`; `uncount` takes back the attempt its claim counted. Other workers are woken.
 */
export async function handBackJob(
  pool: pg.Pool,
  tables: Tables,
  job: Pick<ClaimedJob, 'id' | 'claim'>,
  delayMs: number,
  uncount: boolean,
): Promise<boolean> {
  const { rows } = await pool.query(
    `WITH back AS (
       UPDATE ${tables.jobs} SET status = 'queued', owner = NULL, lease_expires_at = NULL,
              run_after = ${leaseUntil('$3')}, attempts = attempts - $4, updated_at = now()
       WHERE id = $1 AND claim = $2 AND status = 'running'
       RETURNING app_name)
     SELECT pg_notify($5, app_name) FROM back`,
    [job.id, job.claim, Math.max(0, Math.round(delayMs)), uncount ? 1 : 0, tables.workChannel],
  );
  return rows.length > 0;
}

/**
 * Milliseconds until the next job of these apps becomes claimable without a NOTIFY: a lease
 * expiring (a worker that may die) or a delayed hand-back coming due. Undefined when none is.
 */
export async function nextDueInMs(pool: pg.Pool, tables: Tables, apps: readonly string[]): Promise<number | undefined> {
  const { rows } = await pool.query<{ ms: number | null }>(
    `SELECT extract(epoch FROM (least(
       (SELECT min(lease_expires_at) FROM ${tables.jobs} WHERE status = 'running' AND app_name = ANY($1::text[])),
       (SELECT min(run_after) FROM ${tables.jobs} WHERE status = 'queued' AND app_name = ANY($1::text[]))
     ) - now())) * 1000 AS ms`,
    [apps],
  );
  const ms = rows[0]?.ms;
  return ms === null || ms === undefined ? undefined : Math.max(0, Number(ms));
}
