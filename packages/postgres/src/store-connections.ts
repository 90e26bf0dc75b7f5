import pg from 'pg';
import { ConnectionSettings, type LockBounds } from './connection-settings.js';
import { withClient } from './checkout.js';
import { classifyFault } from './pg-faults.js';

/** PostgreSQL error codes worth one more try: the transaction was rolled back, nothing written. */
const RETRYABLE = new Set(['40001', '40P01']);

/** Where the store's connections come from: a pool given or made, and the pool for lease statements. */
export interface ConnectionSource {
  readonly pool?: pg.Pool | undefined;
  readonly leasePool?: pg.Pool | undefined;
  readonly connectionString?: string | undefined;
  readonly maxConnections?: number | undefined;
  readonly leaseConnections?: number | undefined;
}

/** A pool the store creates: a 10 s connection timeout and TCP keep-alive, so an unreachable server fails a call instead of hanging it. */
function ownPool(connectionString: string | undefined, max: number): pg.Pool {
  const pool = new pg.Pool({ connectionString, max, connectionTimeoutMillis: 10_000, keepAlive: true });
  // An idle connection dropped by the server must not crash the process; the next query reports it.
  pool.on('error', () => undefined);
  return pool;
}

/**
 * The store's connections: `main` for reads and appends, `leases` for lease statements — a pool of
 * its own (unless you passed one pool only), so a renewal never waits for a connection behind
 * appends — each connection bounded by the store's lock settings before its first use.
 */
export class StoreConnections {
  private readonly main: pg.Pool;
  private readonly leases: pg.Pool;
  private readonly owned: pg.Pool[] = [];
  private readonly settings: ConnectionSettings;
  private ended: Promise<unknown> | undefined;

  constructor(source: ConnectionSource, bounds: LockBounds) {
    this.settings = new ConnectionSettings(bounds);
    this.main = source.pool ?? ownPool(source.connectionString, source.maxConnections ?? 10);
    this.leases = source.leasePool ?? source.pool ?? ownPool(source.connectionString, source.leaseConnections ?? 2);
    for (const pool of new Set([this.main, this.leases])) if (pool !== source.pool && pool !== source.leasePool) this.owned.push(pool);
  }

  /** The main pool (a LISTEN connection is checked out of it). */
  get mainPool(): pg.Pool {
    return this.main;
  }

  /** Runs `body` on a client of the main pool (see `withClient`). */
  withClient<T>(body: (client: pg.PoolClient, discard: (error: Error) => void) => Promise<T>): Promise<T> {
    return withClient(this.main, body, this.settings);
  }

  /** Runs one lease statement's `body` on a client of the lease pool. */
  withLeaseClient<T>(body: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    return withClient(this.leases, body, this.settings);
  }

  /**
   * Runs `body` on a checked-out client — in a transaction when `inTransaction` — up to three
   * times while PostgreSQL rolls it back for a serialization failure or deadlock (nothing was written).
   */
  async attempt<T>(inTransaction: boolean, body: (client: pg.PoolClient) => Promise<T>, mode = ''): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.withClient(async (client, discard) => {
          if (!inTransaction) return body(client);
          await client.query(mode ? `BEGIN ISOLATION LEVEL ${mode}` : 'BEGIN');
          try {
            const result = await body(client);
            await client.query('COMMIT');
            return result;
          } catch (error) {
            if (classifyFault(error) !== 'connection') await client.query('ROLLBACK').catch(discard);
            throw error;
          }
        });
      } catch (error) {
        if (attempt < 3 && RETRYABLE.has((error as { code?: string }).code ?? '')) continue;
        throw error;
      }
    }
  }

  /** Ends the pools the store created; pools you passed stay open. */
  end(): Promise<unknown> {
    this.ended ??= Promise.all(this.owned.map((p) => p.end()));
    return this.ended;
  }
}
