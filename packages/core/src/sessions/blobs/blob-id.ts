import { createHash } from 'node:crypto';
import { BLOB_ID } from '../../messages/media-check.js';

/** A blob's id: the SHA-256 of its bytes, 64 lowercase hex digits (content-addressed: equal bytes, one blob). */
export const blobIdOf = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

/** Whether `id` has the shape of a blob id (so it is safe as a file name or a key). */
export const isBlobId = (id: unknown): id is string => typeof id === 'string' && BLOB_ID.test(id);
