import type pg from 'pg';
import { ConfigurationError } from '@replan/core';

/** The store's bounds on waiting for locks, as `PostgresSessionStoreOptions` gives them. */
export interface LockBounds {
  /** `lock_timeout`: how long one statement waits for a lock before it fails and is rolled back (0: forever). */
  readonly lockTimeoutMs: number;
  /** `idle_in_transaction_session_timeout`: how long a connection may sit in an open transaction (0: forever). */
  readonly idleInTransactionTimeoutMs: number;
}

/** Defaults: a statement waits at most 5 s for a lock; a transaction left open 10 s (a stalled client) is ended by the server. */
export const DEFAULT_LOCK_BOUNDS: LockBounds = { lockTimeoutMs: 5_000, idleInTransactionTimeoutMs: 10_000 };

function checkMs(name: string, value: unknown): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > 2_147_483_647)
    throw new ConfigurationError(`PostgresSessionStore ${name} must be a whole number of ms from 0 (no limit) up, got ${String(value)}.`);
  return value;
}

/** The bounds from the options, defaults filled in (`ConfigurationError` for a bad value). */
export function lockBounds(options: { readonly lockTimeoutMs?: number; readonly idleInTransactionTimeoutMs?: number }): LockBounds {
  return {
    lockTimeoutMs: checkMs('lockTimeoutMs', options.lockTimeoutMs ?? DEFAULT_LOCK_BOUNDS.lockTimeoutMs),
    idleInTransactionTimeoutMs: checkMs(
      'idleInTransactionTimeoutMs',
      options.idleInTransactionTimeoutMs ?? DEFAULT_LOCK_BOUNDS.idleInTransactionTimeoutMs,
    ),
  };
}

/**
 * Sets the bounds on each connection the store uses, once per connection, the first time the
 * store checks it out (session settings: they stay on that connection, also for a pool you own).
 */
export class ConnectionSettings {
  private readonly done = new WeakSet<pg.ClientBase>();
  private readonly sql: string;

  constructor(bounds: LockBounds) {
    this.sql = `SET lock_timeout = ${bounds.lockTimeoutMs}; SET idle_in_transaction_session_timeout = ${bounds.idleInTransactionTimeoutMs}`;
  }

  async apply(client: pg.ClientBase): Promise<void> {
    if (this.done.has(client)) return;
    await client.query(this.sql);
    this.done.add(client);
  }
}
