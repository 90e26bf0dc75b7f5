import type pg from 'pg';
import {
  ConcurrentUpdateError,
  SessionNotFoundError,
  type Session,
  type SessionKey,
  type SessionPage,
  type SessionSummary,
} from '@replan/core';
import { decodeCursor, encodeCursor, type ListSessionsInput, type SessionLease } from '@replan/core/store-kit';
import * as leases from './lease-queries.js';
import { sessionFromRows, type EventRow, type ScopeRow, type SessionRow } from './session-rows.js';
import type { Tables } from './sql-names.js';

/**
 * The session, its events and shared state (`undefined` when absent). Run it in one
 * REPEATABLE READ transaction, so the three reads see one snapshot and agree.
 */
export async function readSession(client: pg.PoolClient, tables: Tables, key: SessionKey): Promise<Session | undefined> {
  const args = [key.appName, key.userId, key.id];
  const session = await client.query<SessionRow>(
    `SELECT schema_version, state, version FROM ${tables.sessions} WHERE app_name = $1 AND user_id = $2 AND id = $3`,
    args,
  );
  const row = session.rows[0];
  if (!row) return undefined;
  const events = await client.query<EventRow>(
    `SELECT seq, event_id, schema_version, event FROM ${tables.events}
     WHERE app_name = $1 AND user_id = $2 AND session_id = $3 ORDER BY seq`,
    args,
  );
  const scopes = await client.query<ScopeRow>(
    `SELECT 'app' AS scope, key, schema_version, value FROM ${tables.appState} WHERE app_name = $1
     UNION ALL
     SELECT 'user' AS scope, key, schema_version, value FROM ${tables.userState} WHERE app_name = $1 AND user_id = $2`,
    [key.appName, key.userId],
  );
  return sessionFromRows(key, row, events.rows, scopes.rows);
}

/** One page of the user's sessions, oldest first (`limit` is already checked). */
export async function listSessions(client: pg.PoolClient, tables: Tables, input: ListSessionsInput): Promise<SessionPage> {
  const limit = input.limit ?? 100;
  const after = input.cursor === undefined ? undefined : decodeCursor(input.cursor);
  const args: unknown[] = [input.appName, input.userId, limit + 1];
  let where = 'app_name = $1 AND user_id = $2';
  if (after) {
    args.push(after.createdAt, after.id);
    where += ' AND (created_at, id) > ($4, $5)';
  }
  const { rows } = await client.query<{ id: string; version: number; created_at: string; updated_at: string }>(
    `SELECT id, version, created_at, updated_at FROM ${tables.sessions} WHERE ${where} ORDER BY created_at, id LIMIT $3`,
    args,
  );
  const sessions: SessionSummary[] = rows.slice(0, limit).map((r) => ({
    appName: input.appName,
    userId: input.userId,
    id: r.id,
    version: r.version,
    createdAt: Number(r.created_at),
    updatedAt: Number(r.updated_at),
  }));
  const last = sessions[sessions.length - 1];
  return rows.length > limit && last ? { sessions, nextCursor: encodeCursor(last) } : { sessions };
}

/**
 * An append with no events writes nothing: it only checks, in one statement, that the session
 * exists, `lease` (if given) is current and its version is `expectedVersion`.
 */
export async function checkVersion(
  client: pg.PoolClient,
  tables: Tables,
  key: SessionKey,
  expectedVersion: number,
  lease: SessionLease | undefined,
): Promise<{ version: number }> {
  const { rows } = await client.query<{ version: number; lease_owner: string | null; lease_token: number }>(
    `SELECT s.version, ${leases.LEASE_COLUMNS} FROM ${tables.sessions} s
     LEFT JOIN ${tables.leases} l ON l.app_name = s.app_name AND l.user_id = s.user_id AND l.session_id = s.id
     WHERE s.app_name = $1 AND s.user_id = $2 AND s.id = $3`,
    [key.appName, key.userId, key.id],
  );
  const found = rows[0];
  if (!found) throw new SessionNotFoundError(key.appName, key.userId, key.id);
  const lost = leases.lostLease(key, lease, found);
  if (lost) throw lost;
  if (found.version !== expectedVersion) throw new ConcurrentUpdateError(key.id, expectedVersion, found.version);
  return { version: expectedVersion };
}
