import { ReplanError } from './replan-error.js';

/**
 * A blob would pass a store's size limit; nothing of the append was written. Base class of
 * `BlobTooLargeError` (one image or file) and `SessionBlobsTooLargeError` (a session's total).
 */
export class BlobLimitError extends ReplanError {
  constructor(
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
export class BlobTooLargeError extends BlobLimitError {
  constructor(sessionId: string, mediaType: string, size: number, limit: number) {
    super(
      `Session "${sessionId}": an ${mediaType} of ${size} bytes is over the store's maxBlobBytes (${limit}); nothing was written. ` +
        'Shrink or split it (a smaller image, fewer PDF pages), pass it by URL, or raise maxBlobBytes in the store options.',
      sessionId,
      size,
      limit,
    );
  }
}

/** The session's blobs would together pass the store's `maxSessionBlobBytes`. */
export class SessionBlobsTooLargeError extends BlobLimitError {
  constructor(sessionId: string, size: number, limit: number) {
    super(
      `Session "${sessionId}": its images and files would take ${size} bytes, over the store's maxSessionBlobBytes (${limit}); ` +
        'nothing was written. Start a new session, pass media by URL, or raise maxSessionBlobBytes in the store options.',
      sessionId,
      size,
      limit,
    );
  }
}
