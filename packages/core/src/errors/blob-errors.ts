import { ReplanError } from './replan-error.js';

/**
 * A blob would pass a store's size limit; nothing of the append was written. `scope` says which
 * limit: `'blob'` — one image or file is larger than the store's `maxBlobBytes`; `'session'` — the
 * session's blobs would together pass its `maxSessionBlobBytes`. The message says what to do.
 */
export class BlobLimitError extends ReplanError {
  constructor(
    /** Which limit: one blob's (`maxBlobBytes`) or the session's total (`maxSessionBlobBytes`). */
    readonly scope: 'blob' | 'session',
    message: string,
    readonly sessionId: string,
    /** The bytes the limit was asked to take. */
    readonly size: number,
    /** The limit, in bytes. */
    readonly limit: number,
  ) {
    super(message);
  }
}

/** One image or file is larger than the store's `maxBlobBytes`. */
export const blobTooLarge = (sessionId: string, mediaType: string, size: number, limit: number): BlobLimitError =>
  new BlobLimitError(
    'blob',
    `Session "${sessionId}": an ${mediaType} of ${size} bytes is over the store's maxBlobBytes (${limit}); nothing was written. ` +
      'Shrink or split it (a smaller image, fewer PDF pages), pass it by URL, or raise maxBlobBytes in the store options.',
    sessionId,
    size,
    limit,
  );

/** The session's blobs would together pass the store's `maxSessionBlobBytes`. */
export const sessionBlobsTooLarge = (sessionId: string, size: number, limit: number): BlobLimitError =>
  new BlobLimitError(
    'session',
    `Session "${sessionId}": its images and files would take ${size} bytes, over the store's maxSessionBlobBytes (${limit}); ` +
      'nothing was written. Start a new session, pass media by URL, or raise maxSessionBlobBytes in the store options.',
    sessionId,
    size,
    limit,
  );
