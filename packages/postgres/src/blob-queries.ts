import type pg from 'pg';
import { InvalidArgumentError, SessionCorruptError, SessionNotFoundError, type SessionKey } from '@replan/core';
import { blobsToStore, isBlobId, type ExtractedBlobs, type NewBlob, type ResolvedBlobLimits } from '@replan/core/store-kit';
import type { Tables } from './sql-names.js';

/** Blob rows as `unnest` parameters: ids, media types, sizes, bytes. */
export const blobColumns = (blobs: readonly NewBlob[]) => [
  blobs.map((b) => b.id),
  blobs.map((b) => b.mediaType),
  blobs.map((b) => b.bytes.length),
  blobs.map((b) => b.bytes),
];

/**
 * The blobs of an append the session does not hold yet, after checking that it holds every blob
 * the events name and that the new ones fit `maxSessionBlobBytes`. Reads ids and sizes only, never
 * bytes; one query, and none for an append without media. A concurrent append of the same
 * session may pass the same check: the limit can be passed by one append's blobs at most.
 */
export async function newBlobsOf(
  withClient: <T>(query: (client: pg.PoolClient) => Promise<T>) => Promise<T>,
  tables: Tables,
  key: SessionKey,
  found: ExtractedBlobs,
  limits: ResolvedBlobLimits,
): Promise<NewBlob[]> {
  if (!found.blobs.length && !found.named.size) return [];
  const { rows } = await withClient((client) =>
    client.query<{ blob_id: string; size: number }>(
      `SELECT blob_id, size FROM ${tables.blobs} WHERE app_name = $1 AND user_id = $2 AND session_id = $3`,
      [key.appName, key.userId, key.id],
    ),
  );
  return blobsToStore(key.id, found, new Map(rows.map((r) => [r.blob_id, r.size])), limits);
}

/** The bytes of blob `id` of a session: `SessionNotFoundError` without the session, `SessionCorruptError` without the blob. */
export async function readBlobRow(client: pg.PoolClient, tables: Tables, key: SessionKey, id: string): Promise<Uint8Array> {
  if (!isBlobId(id)) throw new InvalidArgumentError(`"${String(id).slice(0, 80)}" is not a blob id (64 lowercase hex digits).`);
  const { rows } = await client.query<{ bytes: Buffer | null; found: boolean }>(
    `SELECT b.bytes, s.id IS NOT NULL AS found FROM (SELECT 1) AS one
     LEFT JOIN ${tables.sessions} s ON s.app_name = $1 AND s.user_id = $2 AND s.id = $3
     LEFT JOIN ${tables.blobs} b ON b.app_name = $1 AND b.user_id = $2 AND b.session_id = $3 AND b.blob_id = $4`,
    [key.appName, key.userId, key.id, id],
  );
  const row = rows[0];
  if (!row?.found) throw new SessionNotFoundError(key.appName, key.userId, key.id);
  if (!row.bytes) throw new SessionCorruptError(key.id, `blob "${id}" is missing from the store (table replan_blobs)`);
  return row.bytes;
}
