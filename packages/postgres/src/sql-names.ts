import { createHash } from 'node:crypto';
import { ConfigurationError } from '@replan/core';

/** Quotes an SQL identifier, so any schema name is used as given and never injected. */
export function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/** The fully qualified names of the store's tables in one schema. */
export class Tables {
  readonly schema: string;
  readonly sessions: string;
  readonly events: string;
  readonly appState: string;
  readonly userState: string;
  /** One row per session that ever had a lease: its last token, holder, expiry and holder process. */
  readonly leases: string;
  /** The bytes of sessions' images and files, one row per session and blob id (SHA-256). */
  readonly blobs: string;
  readonly migrations: string;
  /**
   * The retired run queue's jobs and view (migration 3): still created, so migrations stay the
   * released ones, but nothing writes them any more (many workers: `@replan/dbos`).
   */
  readonly jobs: string;
  readonly runsView: string;
  /** NOTIFY channel of appends to this schema's sessions (payload: `[appName, userId, id]` as JSON), with `notifyAppends`. */
  readonly changeChannel: string;

  constructor(schema: string) {
    if (typeof schema !== 'string' || schema.length === 0 || schema.length > 63)
      throw new ConfigurationError(`PostgresSessionStore schema must be a name of 1 to 63 characters, got ${JSON.stringify(schema)}.`);
    this.schema = quoteIdent(schema);
    const t = (name: string) => `${this.schema}.${quoteIdent(name)}`;
    this.sessions = t('replan_sessions');
    this.events = t('replan_events');
    this.appState = t('replan_app_state');
    this.userState = t('replan_user_state');
    this.leases = t('replan_leases');
    this.blobs = t('replan_blobs');
    this.migrations = t('replan_migrations');
    this.jobs = t('replan_jobs');
    this.runsView = t('replan_runs');
    // Per schema (two schemas in one database never wake each other) and short (identifiers stop
    // at 63 bytes), so the channel carries a hash of the schema name, not the name.
    this.changeChannel = `replan_changes_${createHash('sha256').update(schema).digest('hex').slice(0, 16)}`;
  }
}
