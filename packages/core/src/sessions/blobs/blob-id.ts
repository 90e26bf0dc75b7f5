import { createHash } from 'node:crypto';
import { InvalidArgumentError } from '../../errors/replan-error.js';
import { BLOB_ID } from '../../messages/media-check.js';

/** A blob's id: the SHA-256 of its bytes, 64 lowercase hex digits (content-addressed: equal bytes, one blob). */
export const blobIdOf = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

/** Whether `id` has the shape of a blob id (so it is safe as a file name or a key). */
export const isBlobId = (id: unknown): id is string => typeof id === 'string' && BLOB_ID.test(id);

/** Refuses an id that is not a blob id (`"../x"`, a path) before it reaches a file name, a key or a query. */
export function assertBlobId(id: unknown): asserts id is string {
  if (!isBlobId(id)) throw new InvalidArgumentError(`"${String(id).slice(0, 80)}" is not a blob id (64 lowercase hex digits).`);
}
