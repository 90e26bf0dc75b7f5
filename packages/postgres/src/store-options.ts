import type { BlobLimits } from '@replan/core/store-kit';
import type pg from 'pg';

/**
 * How to construct a `PostgresSessionStore`: where its connections come from, how long it waits
 * for locks, and the size limits of its blobs (`maxBlobBytes`, `maxSessionBlobBytes`).
 */
export interface PostgresSessionStoreOptions extends BlobLimits {
  /** A pool you own; `close()` leaves it open. Give this or `connectionString`. */
  readonly pool?: pg.Pool;
  /** Connection string for pools the store creates (and ends on `close()`). */
  readonly connectionString?: string;
  /**
   * Size of the pool the store creates (default 10). The pool also gets a 10 s connection timeout
   * and TCP keep-alive, so an unreachable server fails a call instead of hanging it.
   */
  readonly maxConnections?: number;
  /**
   * Size of the second pool the store creates with `connectionString` for lease statements
   * (acquire, renew, release, holder; default 2), so a renewal never waits behind appends.
   */
  readonly leaseConnections?: number;
  /** With `pool`: a pool you own for lease statements (default: `pool` itself). */
  readonly leasePool?: pg.Pool;
  /**
   * PostgreSQL `lock_timeout` on the store's connections, in ms (default 5000; 0: no limit). A
   * statement that waits longer for a row another connection holds locked fails and is rolled
   * back (`SessionStoreError`; nothing written) instead of freezing the caller.
   */
  readonly lockTimeoutMs?: number;
  /**
   * PostgreSQL `idle_in_transaction_session_timeout` on the store's connections, in ms (default
   * 10000; 0: no limit): the server ends a connection of this store left inside an open
   * transaction that long (a stalled process), rolling it back and freeing its locks.
   */
  readonly idleInTransactionTimeoutMs?: number;
  /**
   * NOTIFY each commit's sessions on a channel of the schema, so `watchSession` wakes in every
   * process at once (default false: a NOTIFY takes a database-wide lock at commit, which serialises
   * committing writers; without it, watchers re-read on their own schedule).
   */
  readonly notifyAppends?: boolean;
  /** The PostgreSQL schema holding the tables (default `public`); created by `migrate()`. */
  readonly schema?: string;
}
