import { ReplanError } from '@replan/core';

/**
 * What went wrong with long-term memory:
 * - `too_large`: a memory's text or metadata is over the store's size limit (nothing stored);
 * - `invalid`: a bad scope, id, kind, query or metadata that is not JSON (nothing done);
 * - `embedder`: the embedder threw, or returned a vector count or dimensions other than expected;
 * - `unavailable`: the store could not be reached or failed (a database down, a file unreadable).
 *
 * Agents treat `embedder` and `unavailable` as "go on without memory, and say so"; the others are the
 * caller's mistake and are thrown to it.
 */
export type MemoryErrorKind = 'too_large' | 'invalid' | 'embedder' | 'unavailable';

/** The one error class of `@replan/memory`; `kind` says which failure it is. */
export class MemoryError extends ReplanError {
  constructor(
    readonly kind: MemoryErrorKind,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
