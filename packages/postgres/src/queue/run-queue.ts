import { randomUUID } from 'node:crypto';
import pg from 'pg';
import {
  ConfigurationError,
  ReplanError,
  SessionNotFoundError,
  UnknownInterruptError,
  type AgentEvent,
  type ContentBlock,
  type Message,
  type RunResult,
  type SessionKey,
} from '@replan/core';
import { assertSessionKey, eventsForStorage, jsonStateDelta, toUserMessage } from '@replan/core/store-kit';
import { withClient } from '../checkout.js';
import { migrateSchema } from '../migrations.js';
import { classifyFault, storeFault } from '../pg-faults.js';
import { insertSession } from '../session-writer.js';
import { Tables } from '../sql-names.js';
import { decodeJobResult } from './job-result.js';
import { RunInProgressError, RunNotQueuedError } from './queue-errors.js';
import { listRuns, type ListRunsInput, type QueuedRunSummary } from './run-listing.js';
import { RunWaiters } from './run-waiters.js';

export interface PostgresRunQueueOptions {
  /** A pool you own; `close()` leaves it open. Give this or `connectionString`. */
  readonly pool?: pg.Pool;
  /** Connection string for a pool the queue creates (and ends on `close()`). */
  readonly connectionString?: string;
  /** Size of the pool the queue creates (default 10; a worker uses one more for LISTEN). */
  readonly maxConnections?: number;
  /** The schema of the sessions (the same as the `PostgresSessionStore`'s; default `public`). */
  readonly schema?: string;
}

export interface SubmitInput {
  readonly appName: string;
  readonly userId: string;
  /** The id of the new session (default: a random UUID). */
  readonly sessionId?: string;
  readonly input: string | Message | readonly ContentBlock[];
  /** Initial state of the new session. */
  readonly state?: Readonly<Record<string, unknown>>;
  /** Higher runs first (default 0); equal priorities run in submission order. */
  readonly priority?: number;
}

export interface SubmitResumeInput {
  readonly appName: string;
  readonly userId: string;
  readonly sessionId: string;
  /** Answers to the run's open interrupts, by interrupt id (see `RunResult.interrupts`). */
  readonly values?: Readonly<Record<string, unknown>>;
  readonly priority?: number;
}

export interface WaitForInput {
  readonly appName: string;
  readonly userId: string;
  readonly sessionId: string;
  /** Stops waiting (the run goes on): `waitFor` rejects with the signal's reason. */
  readonly signal?: AbortSignal;
}

/** What a `Worker` needs from its queue. */
export interface QueueBackend {
  readonly pool: pg.Pool;
  readonly tables: Tables;
  ready(): Promise<void>;
}

const backends = new WeakMap<PostgresRunQueue, QueueBackend>();

/** The queue's pool and tables, for the `Worker` (not part of the public API). */
export function queueBackend(queue: PostgresRunQueue): QueueBackend {
  const backend = backends.get(queue);
  if (!backend) throw new ConfigurationError('Worker needs a PostgresRunQueue: new Worker({ queue: new PostgresRunQueue({ ... }), ... }).');
  return backend;
}

const assertPriority = (priority: number | undefined) => {
  if (priority !== undefined && !(Number.isInteger(priority) && Math.abs(priority) <= 2 ** 31 - 1))
    throw new ConfigurationError(`A run's priority must be a 32-bit integer, got ${String(priority)}.`);
};

/**
 * Runs submitted to PostgreSQL and run by `Worker`s, in the same database (and schema) as the
 * sessions. `submit` creates the session with its input and queues its run in one transaction;
 * a worker claims it and drives it with `runner.resume`; `waitFor` is woken by NOTIFY.
 *
 * Jobs live in `replan_jobs` (one row per session: its latest run), listed for operators by the
 * `replan_runs` view. Statuses: `queued` → `running` → `completed` | `interrupted` | `failed`;
 * `submitResume` puts an interrupted or failed run back in the queue.
 */
export class PostgresRunQueue {
  private readonly pool: pg.Pool;
  private readonly ownsPool: boolean;
  private readonly tables: Tables;
  private readonly schemaName: string;
  private migrated: Promise<void> | undefined;
  private closed: Promise<void> | undefined;
  private readonly waiters: RunWaiters;

  constructor(options: PostgresRunQueueOptions) {
    if (!options || (options.pool === undefined) === (options.connectionString === undefined))
      throw new ConfigurationError(
        'PostgresRunQueue needs exactly one of { pool } or { connectionString }, e.g. ' +
          'new PostgresRunQueue({ connectionString: process.env.DATABASE_URL }).',
      );
    this.schemaName = options.schema ?? 'public';
    this.tables = new Tables(this.schemaName);
    this.ownsPool = options.pool === undefined;
    this.pool = options.pool ?? new pg.Pool({ connectionString: options.connectionString, max: options.maxConnections ?? 10 });
    if (this.ownsPool) this.pool.on('error', () => undefined);
    const backend: QueueBackend = { pool: this.pool, tables: this.tables, ready: () => this.ready() };
    backends.set(this, backend);
    this.waiters = new RunWaiters(backend, (key) => this.readResult(key));
  }

  /** Creates or updates the tables (sessions and queue). Idempotent, safe from many processes. */
  async migrate(): Promise<void> {
    await this.wrap('migrate', undefined, async () => {
      await withClient(this.pool, (client) => migrateSchema(client, this.tables, this.schemaName));
    });
    this.migrated = Promise.resolve();
  }

  /**
   * Creates the session with the user's input and queues its run, in one transaction: either both
   * exist afterwards or neither. An existing `sessionId` is refused (`SessionExistsError`).
   */
  async submit(input: SubmitInput): Promise<{ sessionId: string }> {
    const key: SessionKey = { appName: input.appName, userId: input.userId, id: input.sessionId ?? randomUUID() };
    assertSessionKey(key);
    assertPriority(input.priority);
    const state = jsonStateDelta(input.state);
    const event: AgentEvent = {
      id: randomUUID(),
      invocationId: randomUUID(),
      author: 'user',
      path: 'user',
      timestamp: Date.now(),
      message: toUserMessage(input.input),
    };
    const events = eventsForStorage([event]);
    await this.transaction('submit a run for', key, async (client) => {
      await insertSession(client, this.tables, key, state, events);
      await client.query(
        `INSERT INTO ${this.tables.jobs} (app_name, user_id, session_id, status, priority) VALUES ($1, $2, $3, 'queued', $4)`,
        [key.appName, key.userId, key.id, input.priority ?? 0],
      );
      await client.query('SELECT pg_notify($1, $2)', [this.tables.workChannel, key.appName]);
    });
    return { sessionId: key.id };
  }

  /**
   * Queues a run that stopped (interrupted, failed — or a session first run outside the queue)
   * to be resumed by a worker, with `values` answering its open interrupts. Refused while a run
   * of the session is queued or running (`RunInProgressError`); unknown interrupt ids are refused
   * at once (`UnknownInterruptError`).
   */
  async submitResume(input: SubmitResumeInput): Promise<void> {
    const key: SessionKey = { appName: input.appName, userId: input.userId, id: input.sessionId };
    assertSessionKey(key);
    assertPriority(input.priority);
    const values = input.values === undefined ? undefined : jsonStateDelta(input.values);
    await this.transaction('submit a resume of', key, async (client) => {
      const args = [key.appName, key.userId, key.id];
      const { rows } = await client.query<{ status: string; result: unknown }>(
        `SELECT status, result FROM ${this.tables.jobs} WHERE app_name = $1 AND user_id = $2 AND session_id = $3 FOR UPDATE`,
        args,
      );
      const job = rows[0];
      if (job?.status === 'queued' || job?.status === 'running') throw new RunInProgressError(key.id, job.status);
      if (values && job?.result) {
        const open = decodeJobResult(key.id, job.result).interrupts.map((i) => i.id);
        for (const id of Object.keys(values)) if (!open.includes(id)) throw new UnknownInterruptError(id, open);
      }
      const params = [...args, values === undefined ? null : JSON.stringify(values), input.priority ?? 0];
      if (job)
        await client.query(
          `UPDATE ${this.tables.jobs} SET status = 'queued', resume_values = $4::json, priority = $5, attempts = 0,
                  run_after = now(), result = NULL, finished_at = NULL, updated_at = now()
           WHERE app_name = $1 AND user_id = $2 AND session_id = $3`,
          params,
        );
      else {
        const session = await client.query(
          `SELECT 1 FROM ${this.tables.sessions} WHERE app_name = $1 AND user_id = $2 AND id = $3 FOR KEY SHARE`,
          args,
        );
        if (!session.rowCount) throw new SessionNotFoundError(key.appName, key.userId, key.id);
        await client.query(
          `INSERT INTO ${this.tables.jobs} (app_name, user_id, session_id, status, resume_values, priority)
           VALUES ($1, $2, $3, 'queued', $4::json, $5)`,
          params,
        );
      }
      await client.query('SELECT pg_notify($1, $2)', [this.tables.workChannel, key.appName]);
    });
  }

  /**
   * Waits until the session's queued run stops — completed, interrupted or failed — and returns
   * its `RunResult` (without events: read them from the session store). Woken by NOTIFY, and
   * checked against the job row once listening, so a run that ended just before is not missed.
   * A session without a queued run: `RunNotQueuedError`.
   */
  async waitFor(input: WaitForInput): Promise<RunResult> {
    const key: SessionKey = { appName: input.appName, userId: input.userId, id: input.sessionId };
    assertSessionKey(key);
    input.signal?.throwIfAborted();
    await this.ready();
    try {
      return await this.waiters.wait(key, input.signal);
    } catch (error) {
      if (input.signal?.aborted && error === input.signal.reason) throw error;
      return this.wrap('wait for', key, () => Promise.reject(error));
    }
  }

  /**
   * The runs that are not completed — queued, running (with holder and lease age), interrupted,
   * failed — oldest first: the `replan_runs` view, for dashboards and operators.
   */
  async listRuns(input: ListRunsInput = {}): Promise<QueuedRunSummary[]> {
    await this.ready();
    return this.wrap('list runs', undefined, () => listRuns(this.pool, this.tables, input));
  }

  /** Stops listening (pending `waitFor`s reject) and ends the pool if the queue created it. */
  close(): Promise<void> {
    this.closed ??= (async () => {
      await this.waiters.close();
      if (this.ownsPool) await this.pool.end();
    })();
    return this.closed;
  }

  /** The run's result once it stopped; `undefined` while it is queued or running. */
  private async readResult(key: SessionKey): Promise<{ jobId: string; result?: RunResult }> {
    const { rows } = await this.pool.query<{ id: string; status: string; result: unknown }>(
      `SELECT id, status, result FROM ${this.tables.jobs} WHERE app_name = $1 AND user_id = $2 AND session_id = $3`,
      [key.appName, key.userId, key.id],
    );
    const job = rows[0];
    if (!job) throw new RunNotQueuedError(key.appName, key.userId, key.id);
    if (job.status === 'queued' || job.status === 'running' || job.result === null) return { jobId: String(job.id) };
    return { jobId: String(job.id), result: decodeJobResult(key.id, job.result) };
  }

  private ready(): Promise<void> {
    this.migrated ??= this.migrate().catch((error: unknown) => {
      this.migrated = undefined;
      throw error;
    });
    return this.migrated;
  }

  private async transaction(what: string, key: SessionKey, body: (client: pg.PoolClient) => Promise<void>): Promise<void> {
    await this.wrap(what, key, async () => {
      await this.ready();
      await withClient(this.pool, async (client, discard) => {
        await client.query('BEGIN');
        try {
          await body(client);
          await client.query('COMMIT');
        } catch (error) {
          if (classifyFault(error) !== 'connection') await client.query('ROLLBACK').catch(discard);
          throw error;
        }
      });
    });
  }

  /** Replan errors (and aborts) pass through; database failures become `SessionStoreError` with a `kind`. */
  private async wrap<T>(what: string, key: SessionKey | undefined, body: () => Promise<T>): Promise<T> {
    try {
      return await body();
    } catch (error) {
      if (error instanceof ReplanError || error instanceof TypeError || (error as Error).name === 'AbortError') throw error;
      throw storeFault(error, what, key?.id, this.schemaName);
    }
  }
}
