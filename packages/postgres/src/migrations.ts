import type { PoolClient } from 'pg';
import { SessionStoreError } from '@replan/core';
import type { Tables } from './sql-names.js';

/** One step of the database layout; steps are applied in order and recorded, never edited. */
interface Migration {
  readonly version: number;
  readonly name: string;
  readonly sql: (t: Tables) => string;
}

/**
 * Text keys use the "C" collation: byte order, the same on every server, so list paging is stable.
 * Events are `json` (kept verbatim, so any JSON string — even one with \u0000 — round-trips).
 * Sessions store their initial state only; the rest is folded from events on load, so an append
 * never rewrites earlier data.
 */
export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'sessions, events, app and user state',
    sql: (t) => `
      CREATE TABLE ${t.sessions} (
        app_name text COLLATE "C" NOT NULL,
        user_id text COLLATE "C" NOT NULL,
        id text COLLATE "C" NOT NULL,
        schema_version integer NOT NULL,
        state json NOT NULL,
        version integer NOT NULL DEFAULT 0,
        created_at bigint NOT NULL,
        updated_at bigint NOT NULL,
        PRIMARY KEY (app_name, user_id, id)
      );
      CREATE INDEX ON ${t.sessions} (app_name, user_id, created_at, id);
      CREATE TABLE ${t.events} (
        app_name text COLLATE "C" NOT NULL,
        user_id text COLLATE "C" NOT NULL,
        session_id text COLLATE "C" NOT NULL,
        seq integer NOT NULL,
        event_id text NOT NULL,
        schema_version integer NOT NULL,
        event json NOT NULL,
        PRIMARY KEY (app_name, user_id, session_id, seq),
        FOREIGN KEY (app_name, user_id, session_id) REFERENCES ${t.sessions} (app_name, user_id, id) ON DELETE CASCADE
      );
      CREATE TABLE ${t.appState} (
        app_name text COLLATE "C" NOT NULL,
        key text COLLATE "C" NOT NULL,
        schema_version integer NOT NULL,
        value json NOT NULL,
        updated_at bigint NOT NULL,
        PRIMARY KEY (app_name, key)
      );
      CREATE TABLE ${t.userState} (
        app_name text COLLATE "C" NOT NULL,
        user_id text COLLATE "C" NOT NULL,
        key text COLLATE "C" NOT NULL,
        schema_version integer NOT NULL,
        value json NOT NULL,
        updated_at bigint NOT NULL,
        PRIMARY KEY (app_name, user_id, key)
      );`,
  },
  {
    version: 2,
    name: 'session leases: owner, fencing token, expiry',
    // lease_token counts up per session and is never reset (a released lease keeps it, owner NULL).
    sql: (t) => `
      ALTER TABLE ${t.sessions}
        ADD COLUMN lease_owner text,
        ADD COLUMN lease_token integer NOT NULL DEFAULT 0,
        ADD COLUMN lease_expires_at timestamptz;`,
  },
  {
    version: 3,
    name: 'run queue: jobs and the replan_runs view',
    sql: (t) => `
      CREATE TABLE ${t.jobs} (
        id bigserial PRIMARY KEY,
        app_name text COLLATE "C" NOT NULL,
        user_id text COLLATE "C" NOT NULL,
        session_id text COLLATE "C" NOT NULL,
        status text NOT NULL CHECK (status IN ('queued', 'running', 'interrupted', 'completed', 'failed')),
        priority integer NOT NULL DEFAULT 0,
        resume_values json,
        owner text,
        claim integer NOT NULL DEFAULT 0,
        lease_expires_at timestamptz,
        heartbeat_at timestamptz,
        claimed_at timestamptz,
        attempts integer NOT NULL DEFAULT 0,
        run_after timestamptz NOT NULL DEFAULT now(),
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        started_at timestamptz,
        finished_at timestamptz,
        result json,
        UNIQUE (app_name, user_id, session_id),
        FOREIGN KEY (app_name, user_id, session_id) REFERENCES ${t.sessions} (app_name, user_id, id) ON DELETE CASCADE
      );
      CREATE INDEX ON ${t.jobs} (priority DESC, id) WHERE status = 'queued';
      CREATE INDEX ON ${t.jobs} (run_after) WHERE status = 'queued';
      CREATE INDEX ON ${t.jobs} (lease_expires_at) WHERE status = 'running';
      CREATE VIEW ${t.runsView} AS
        SELECT id AS job_id, app_name, user_id, session_id, status, priority, owner, attempts,
               now() - heartbeat_at AS lease_age,
               claimed_at, lease_expires_at,
               status = 'running' AND lease_expires_at < now() AS lease_expired,
               now() - created_at AS age,
               result ->> 'status' AS run_status,
               result -> 'error' ->> 'message' AS error,
               created_at, updated_at, started_at, finished_at
        FROM ${t.jobs}
        WHERE status <> 'completed';`,
  },
  {
    version: 4,
    name: 'session leases in their own table, with the holder process',
    // Out of the session row, so a takeover or a renewal never waits for a row lock an append (or a
    // stalled client) holds on the session. The second unique key makes `token` a key column: an
    // append locks its lease row FOR KEY SHARE, which a takeover (a new token: FOR UPDATE) waits for
    // and a renewal (expires_at only: FOR NO KEY UPDATE) does not. The holder_* columns say which
    // process holds it (see HolderProcess in @replan/core/store-kit), so a dead one is taken over at once.
    sql: (t) => `
      CREATE TABLE ${t.leases} (
        app_name text COLLATE "C" NOT NULL,
        user_id text COLLATE "C" NOT NULL,
        session_id text COLLATE "C" NOT NULL,
        token integer NOT NULL,
        owner text,
        expires_at timestamptz,
        holder_host text,
        holder_boot text,
        holder_pid_namespace text,
        holder_pid integer,
        holder_start text,
        PRIMARY KEY (app_name, user_id, session_id),
        UNIQUE (app_name, user_id, session_id, token),
        FOREIGN KEY (app_name, user_id, session_id) REFERENCES ${t.sessions} (app_name, user_id, id) ON DELETE CASCADE
      );
      INSERT INTO ${t.leases} (app_name, user_id, session_id, token, owner, expires_at)
        SELECT app_name, user_id, id, lease_token, lease_owner, lease_expires_at FROM ${t.sessions} WHERE lease_token > 0;
      ALTER TABLE ${t.sessions} DROP COLUMN lease_owner, DROP COLUMN lease_token, DROP COLUMN lease_expires_at;`,
  },
  {
    version: 5,
    name: 'blobs: the bytes of images and files, per session',
    // Events name blobs ({ blob: sha256, size, mediaType }) from then on, written with session
    // schema version 2; events of version 1 hold no blobs and load as they are. A blob is written
    // in the statement that inserts the event naming it, and goes with its session.
    sql: (t) => `
      CREATE TABLE ${t.blobs} (
        app_name text COLLATE "C" NOT NULL,
        user_id text COLLATE "C" NOT NULL,
        session_id text COLLATE "C" NOT NULL,
        blob_id text COLLATE "C" NOT NULL,
        media_type text NOT NULL,
        size integer NOT NULL,
        bytes bytea NOT NULL,
        PRIMARY KEY (app_name, user_id, session_id, blob_id),
        FOREIGN KEY (app_name, user_id, session_id) REFERENCES ${t.sessions} (app_name, user_id, id) ON DELETE CASCADE
      );`,
  },
];

/** Advisory lock class for migrations ("repl"); the object id is the schema's hash. */
const MIGRATION_LOCK_CLASS = 0x7265706c;

/**
 * Brings the schema up to date inside one transaction. A transaction-level advisory lock makes
 * concurrent migrations (many workers starting at once) run one after the other; the later ones
 * find everything applied and do nothing.
 */
export async function migrateSchema(client: PoolClient, tables: Tables, schemaName: string): Promise<void> {
  await client.query('BEGIN');
  try {
    await client.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [MIGRATION_LOCK_CLASS, schemaName]);
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${tables.schema}`);
    await client.query(
      `CREATE TABLE IF NOT EXISTS ${tables.migrations} (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`,
    );
    const { rows } = await client.query<{ version: number }>(`SELECT version FROM ${tables.migrations}`);
    const applied = new Set(rows.map((r) => r.version));
    const newest = Math.max(0, ...applied);
    const known = MIGRATIONS[MIGRATIONS.length - 1]!.version;
    if (newest > known)
      throw new SessionStoreError(
        `Schema ${schemaName} was migrated to version ${newest} by a newer replan; this one knows up to ${known}. ` +
          'Upgrade @replan/postgres on this worker.',
      );
    for (const m of MIGRATIONS) {
      if (applied.has(m.version)) continue;
      await client.query(m.sql(tables));
      await client.query(`INSERT INTO ${tables.migrations} (version, name) VALUES ($1, $2)`, [m.version, m.name]);
    }
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}
