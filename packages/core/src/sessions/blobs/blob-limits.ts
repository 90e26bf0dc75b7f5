import { ConfigurationError } from '../../errors/replan-error.js';
import { sessionBlobsTooLarge } from '../../errors/blob-errors.js';

/** Size limits of a store's blobs (the bytes of images and files), options of every built-in store. */
export interface BlobLimits {
  /** The largest image or file one block may hold, in bytes (default 32 MiB); larger is a `BlobLimitError` (scope `blob`). */
  readonly maxBlobBytes?: number;
  /** The most bytes of blobs one session may hold (default 256 MiB); more is a `BlobLimitError` (scope `session`). */
  readonly maxSessionBlobBytes?: number;
}

/** `BlobLimits` with the defaults filled in. */
export interface ResolvedBlobLimits {
  readonly maxBlobBytes: number;
  readonly maxSessionBlobBytes: number;
}

export const DEFAULT_MAX_BLOB_BYTES = 32 * 1024 * 1024;
export const DEFAULT_MAX_SESSION_BLOB_BYTES = 256 * 1024 * 1024;

/** The limits a store was given, checked (`ConfigurationError` unless positive integers), defaults filled in. */
export function resolveBlobLimits(store: string, limits: BlobLimits | undefined): ResolvedBlobLimits {
  const check = (name: string, value: number | undefined, fallback: number) => {
    if (value === undefined) return fallback;
    if (!Number.isSafeInteger(value) || value < 1)
      throw new ConfigurationError(`${store}: ${name} must be a positive whole number of bytes, got ${value}.`);
    return value;
  };
  return {
    maxBlobBytes: check('maxBlobBytes', limits?.maxBlobBytes, DEFAULT_MAX_BLOB_BYTES),
    maxSessionBlobBytes: check('maxSessionBlobBytes', limits?.maxSessionBlobBytes, DEFAULT_MAX_SESSION_BLOB_BYTES),
  };
}

/** Fails with a `BlobLimitError` (scope `session`) when `stored` bytes plus `added` new ones pass the session limit. */
export function assertSessionBlobTotal(sessionId: string, stored: number, added: number, limits: ResolvedBlobLimits): void {
  if (added > 0 && stored + added > limits.maxSessionBlobBytes)
    throw sessionBlobsTooLarge(sessionId, stored + added, limits.maxSessionBlobBytes);
}
