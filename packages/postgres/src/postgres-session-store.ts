import type pg from 'pg';
import {
  ConfigurationError,
  ReplanError,
  SessionStoreError,
  type AgentEvent,
  type Session,
  type SessionKey,
  type SessionPage,
  type SessionStore,
} from '@replan/core';
import {
  assertExpectedVersion,
  assertSessionLease,
  assertPageLimit,
  assertSessionKey,
  assertUserKey,
  jsonStateDelta,
  eventsForStorage,
  extractBlobs,
  resolveBlobLimits,
  type ResolvedBlobLimits,
  type AppendOptions,
  type LeaseHolder,
  type LeaseOptions,
  type SessionLease,
  type CreateSessionInput,
  type ListSessionsInput,
} from '@replan/core/store-kit';
import { newBlobsOf, readBlobRow } from './blob-queries.js';
import { AppendBatcher, type QueuedAppend } from './append-batcher.js';
import { appendBatch, type AppendOutcome, type PendingAppend } from './batch-append.js';
import { CloseGate } from './close-gate.js';
import { lockBounds } from './connection-settings.js';
import * as leases from './lease-queries.js';
import { migrateSchema } from './migrations.js';
import { classifyFault, shortId, storeFault } from './pg-faults.js';
import { insertSession } from './session-writer.js';
import { checkVersion, listSessions, readSession } from './session-reads.js';
import { SessionWatchers } from './session-watchers.js';
import { Tables } from './sql-names.js';
import { StoreConnections } from './store-connections.js';
import type { PostgresSessionStoreOptions } from './store-options.js';

export type { PostgresSessionStoreOptions } from './store-options.js';

/**
 * Sessions in PostgreSQL: for many processes on many machines.
 *
 * Tables (in `schema`): `replan_sessions` (key, initial state, version), `replan_events` (one
 * row per event, unique per session and sequence number, deleted with their session),
 * `replan_app_state` and `replan_user_state` (one row per key), `replan_blobs` (the bytes of
 * images and files, per session, written by the statement that appends the event naming them, and
 * deleted with their session), and `replan_migrations`.
 * `migrate()` creates them; it also runs on first use, and is safe from many workers at once.
 *
 * An append is one statement: it bumps the session's version only if it still equals
 * `expectedVersion` and its lease is current (the row lock makes a concurrent appender wait, then
 * fail with `ConcurrentUpdateError` or `LeaseLostError`), inserts the events and upserts
 * `app:`/`user:` keys. Row locks are held only while that statement runs, never across a round
 * trip to the process, and each wait for a lock is bounded by `lockTimeoutMs`. Leases live in
 * `replan_leases`, apart from the session row, on a pool of their own. Every query is scoped by
 * (appName, userId, id), so one user can never reach another user's session.
 *
 * Group commit: appends that arrive during a commit go together in the next one, each with its
 * own version check; each caller is answered once the commit holding its append is done.
 *
 * Faults: a lost connection never crashes the process (every client the store checks out listens
 * for errors while it is out); calls fail with `SessionStoreError` of `kind: 'connection'`, and
 * the same store works again once the server is back. Data PostgreSQL refuses is `kind: 'data'`.
 */
export class PostgresSessionStore implements SessionStore {
  private readonly db: StoreConnections;
  private readonly tables: Tables;
  private readonly schemaName: string;
  private migrated: Promise<void> | undefined;
  private readonly batcher = new AppendBatcher((batch) => this.commitAppends(batch));
  private readonly limits: ResolvedBlobLimits;
  private readonly watchers: SessionWatchers;
  private readonly appends = new CloseGate();

  constructor(options: PostgresSessionStoreOptions) {
    if (!options || (options.pool === undefined) === (options.connectionString === undefined))
      throw new ConfigurationError(
        'PostgresSessionStore needs exactly one of { pool } or { connectionString }, e.g. ' +
          'new PostgresSessionStore({ connectionString: process.env.DATABASE_URL }).',
      );
    if (options.leasePool !== undefined && options.pool === undefined)
      throw new ConfigurationError('PostgresSessionStore leasePool goes with pool; with connectionString, set leaseConnections instead.');
    const bounds = lockBounds(options);
    this.limits = resolveBlobLimits('PostgresSessionStore', options);
    this.schemaName = options.schema ?? 'public';
    this.tables = new Tables(this.schemaName);
    this.db = new StoreConnections(options, bounds);
    this.watchers = new SessionWatchers(this.db.mainPool, this.tables, options);
  }

  /** Wakes `onChange` on commits to the session: see `SessionWatchers`. */
  watchSession(key: SessionKey, onChange: () => void) {
    return this.watchers.watch(key, onChange);
  }

  /** Creates or updates the tables. Idempotent; concurrent calls from many processes are safe. */
  async migrate(): Promise<void> {
    await this.wrap('migrate', undefined, () => this.db.withClient((client) => migrateSchema(client, this.tables, this.schemaName)));
    this.migrated = Promise.resolve();
  }

  async create(input: CreateSessionInput, events: readonly AgentEvent[] = []): Promise<Session> {
    assertSessionKey(input);
    const state = jsonStateDelta(input.state);
    const clean = eventsForStorage(events);
    const key: SessionKey = { appName: input.appName, userId: input.userId, id: input.id };
    // One statement, no transaction: its row locks last only while it runs.
    await this.wrap('create', key, async () => {
      await this.ready();
      await this.db.attempt(false, (client) => insertSession(client, this.tables, key, state, clean, this.limits));
    });
    const session = await this.get(key);
    if (!session) throw new SessionStoreError(`Session ${shortId(key.id)} vanished right after it was created.`);
    return session;
  }

  async get(key: SessionKey): Promise<Session | undefined> {
    assertSessionKey(key);
    // One snapshot for all reads, so the session row, its events and shared state agree.
    return this.transaction('read', key, (client) => readSession(client, this.tables, key), 'REPEATABLE READ READ ONLY');
  }

  async list(input: ListSessionsInput): Promise<SessionPage> {
    assertUserKey(input);
    assertPageLimit(input.limit);
    return this.wrap('list', undefined, async () => {
      await this.ready();
      return this.db.withClient((client) => listSessions(client, this.tables, input));
    });
  }

  async delete(key: SessionKey): Promise<void> {
    assertSessionKey(key);
    await this.wrap('delete', key, async () => {
      await this.ready();
      // Events go with it (ON DELETE CASCADE, as do rows of the retired run queue's jobs table);
      // app:/user: state is shared, so it stays.
      await this.db.withClient((client) =>
        client.query(`DELETE FROM ${this.tables.sessions} WHERE app_name = $1 AND user_id = $2 AND id = $3`, [
          key.appName,
          key.userId,
          key.id,
        ]),
      );
    });
  }

  /** Refused with `SessionStoreError` once `close()` began; `close()` waits for every append started before. */
  appendEvents(key: SessionKey, events: readonly AgentEvent[], options: AppendOptions): Promise<{ version: number }> {
    return this.appends.run(
      () => this.append(key, events, options),
      () =>
        new SessionStoreError(
          `Could not append to session ${shortId(String(key?.id))}: this PostgresSessionStore was closed. ` +
            'Create a new store to keep writing; call close() only once nothing appends any more.',
        ),
    );
  }

  private async append(
    key: SessionKey,
    events: readonly AgentEvent[],
    { expectedVersion, lease }: AppendOptions,
  ): Promise<{ version: number }> {
    assertSessionKey(key);
    assertExpectedVersion(expectedVersion);
    if (lease !== undefined) assertSessionLease(lease);
    const found = extractBlobs(key.id, eventsForStorage(events), this.limits);
    // New blobs, checked against the session's (ids and sizes read, never bytes; no query without media).
    const blobs =
      found.blobs.length || found.named.size
        ? await newBlobsOf((query) => this.blobQuery('append to', key, query), this.tables, key, found, this.limits)
        : [];
    if (found.events.length)
      return this.batcher.append({
        key: { appName: key.appName, userId: key.userId, id: key.id },
        events: found.events,
        expectedVersion,
        ...(lease ? { lease } : {}),
        ...(blobs.length ? { blobs } : {}),
      });
    // Nothing to write: only check the version (one statement, no transaction).
    return this.wrap('append to', key, async () => {
      await this.ready();
      return this.db.withClient((client) => checkVersion(client, this.tables, key, expectedVersion, lease));
    });
  }

  /** The bytes of blob `id` of the session (see `SessionStore.readBlob`). */
  async readBlob(key: SessionKey, id: string): Promise<Uint8Array> {
    assertSessionKey(key);
    return this.blobQuery('read a blob of', key, (client) => readBlobRow(client, this.tables, key, id));
  }

  private blobQuery<T>(what: string, key: SessionKey, query: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    return this.wrap(what, key, () => this.ready().then(() => this.db.withClient(query)));
  }

  /** Takes the session's lease; expiry is judged by the database's clock (see lease-queries.ts). */
  async acquireLease(key: SessionKey, options: LeaseOptions): Promise<SessionLease> {
    leases.checkAcquire(key, options);
    return this.leaseQuery('lease', key, (client) => leases.acquireLease(client, this.tables, key, options));
  }

  async renewLease(key: SessionKey, lease: SessionLease, ttlMs: number): Promise<SessionLease> {
    leases.checkRenew(key, lease, ttlMs);
    return this.leaseQuery('renew the lease of', key, (client) => leases.renewLease(client, this.tables, key, lease, ttlMs));
  }

  async releaseLease(key: SessionKey, lease: SessionLease): Promise<void> {
    leases.checkRelease(key, lease);
    return this.leaseQuery('release the lease of', key, (client) => leases.releaseLease(client, this.tables, key, lease));
  }

  async leaseHolder(key: SessionKey): Promise<LeaseHolder | undefined> {
    assertSessionKey(key);
    return this.leaseQuery('read the lease of', key, (client) => leases.leaseHolder(client, this.tables, key));
  }

  /** One lease statement, on the lease pool. */
  private leaseQuery<T>(what: string, key: SessionKey, query: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    return this.wrap(what, key, () => this.ready().then(() => this.db.withLeaseClient(query)));
  }

  /**
   * Waits for every append already started (committed or refused), then ends the pools the store
   * created; pools you passed in stay open. Appends made after close() began are refused.
   */
  async close(): Promise<void> {
    await this.appends.close();
    await this.batcher.idle();
    await this.watchers.close();
    await this.db.end();
  }

  private ready(): Promise<void> {
    this.migrated ??= this.migrate().catch((error: unknown) => {
      this.migrated = undefined; // let a later call try again (e.g. the database was still starting)
      throw error;
    });
    return this.migrated;
  }

  /**
   * Commits a batch of appends (see `AppendBatcher`) in one statement. If PostgreSQL refuses the
   * batch — for its data, or because a lock wait timed out (then nothing of it was written) — each
   * append is retried alone, all at once, so only the faulty or blocked one fails and the others
   * wait at most one more lock wait. A connection fault fails them all (none was acknowledged).
   */
  private async commitAppends(batch: QueuedAppend[]): Promise<void> {
    const settle = (queued: QueuedAppend, outcome: AppendOutcome) =>
      'error' in outcome ? queued.reject(outcome.error) : queued.resolve(outcome);
    const run = (appends: PendingAppend[]) =>
      this.db.attempt(false, (client) => appendBatch(client, this.tables, appends, this.watchers.notify));
    try {
      await this.ready();
    } catch (error) {
      for (const queued of batch) queued.reject(this.fault(error, 'append to', queued.append.key));
      return;
    }
    try {
      const outcomes = await run(batch.map((q) => q.append));
      for (const [i, queued] of batch.entries()) settle(queued, outcomes[i]!);
    } catch (error) {
      if (batch.length > 1 && classifyFault(error) !== 'connection') {
        await Promise.all(
          batch.map((queued) =>
            run([queued.append]).then(
              ([outcome]) => settle(queued, outcome!),
              (alone: unknown) => queued.reject(this.fault(alone, 'append to', queued.append.key)),
            ),
          ),
        );
        return;
      }
      for (const queued of batch) queued.reject(this.fault(error, 'append to', queued.append.key));
    }
  }

  /** Runs `body` in one transaction (retried when PostgreSQL rolled it back for a deadlock). */
  private async transaction<T>(what: string, key: SessionKey, body: (client: pg.PoolClient) => Promise<T>, mode = ''): Promise<T> {
    return this.wrap(what, key, async () => {
      await this.ready();
      return this.db.attempt(true, body, mode);
    });
  }

  /** Replan errors pass through; database and connection failures become `SessionStoreError`. */
  private fault(error: unknown, what: string, key: SessionKey | undefined): Error {
    if (error instanceof ReplanError || error instanceof TypeError) return error;
    return storeFault(error, what, key?.id, this.schemaName);
  }

  /** Runs `body`, turning database and connection failures into `SessionStoreError` (see `fault`). */
  private async wrap<T>(what: string, key: SessionKey | undefined, body: () => Promise<T>): Promise<T> {
    try {
      return await body();
    } catch (error) {
      throw this.fault(error, what, key);
    }
  }
}
