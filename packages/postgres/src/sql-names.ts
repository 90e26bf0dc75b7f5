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
  /** The run queue's jobs (one row per session that went through the queue) and its operations view. */
  readonly jobs: string;
  readonly runsView: string;
  /** LISTEN/NOTIFY channels of this schema's queue: new claimable work, and finished runs (payload: job id). */
  readonly workChannel: string;
  readonly doneChannel: string;
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
    // Channels are per schema (two queues in one database never wake each other) and short
    // (identifiers stop at 63 bytes), so they carry a hash of the schema name, not the name.
    const tag = createHash('sha256').update(schema).digest('hex').slice(0, 16);
    this.workChannel = `replan_work_${tag}`;
    this.doneChannel = `replan_done_${tag}`;
    this.changeChannel = `replan_changes_${tag}`;
  }
}
