import { ReplanError } from './replan-error.js';

/** An append was made against a stale session version; nothing was written. */
export class ConcurrentUpdateError extends ReplanError {
  constructor(
    readonly sessionId: string,
    readonly expectedVersion: number,
    readonly actualVersion: number,
  ) {
    super(
      `Session "${sessionId}" was changed by someone else (expected version ${expectedVersion}, found ${actualVersion}); ` +
        'nothing was written. Reload the session and retry, or let the other writer finish.',
    );
  }
}

/**
 * The session is already being run: by this process (through any `Runner` on the same store), or
 * elsewhere under a live lease (then `owner` and `expiresAt` name the holder). Refused before
 * anything is written or run. A `ConcurrentUpdateError`, so one `catch` handles both the
 * in-process and the cross-process case.
 */
export class SessionBusyError extends ConcurrentUpdateError {
  /** The lease holder, when a lease refused the run (undefined for an in-process claim). */
  readonly owner?: string;
  /** When the holder's lease expires (epoch ms, the store's clock), when a lease refused the run. */
  readonly expiresAt?: number;

  constructor(sessionId: string, holder?: { readonly owner: string; readonly expiresAt: number }) {
    super(sessionId, -1, -1);
    if (holder) {
      this.owner = holder.owner;
      this.expiresAt = holder.expiresAt;
      this.message =
        `Session "${sessionId}" is being run by "${holder.owner}" (lease until ${new Date(holder.expiresAt).toISOString()}); ` +
        'nothing was written. Wait for that run to finish, or resume after its lease expires. A holder whose process died on ' +
        'the same machine (and pid namespace) is taken over at once; one on another machine only once its lease expired.';
    } else
      this.message =
        `Session "${sessionId}" is already running in this process; nothing was written. ` +
        'Wait for that run to finish (or abort it), then resume.';
  }
}

/**
 * A run's lease on its session is no longer current: another run took the session over (a higher
 * fencing token), or the lease was released, or the run could not renew it before it expired.
 * The run must stop: another process may now drive the session. `appendRefused` says whether the
 * store refused an append for it (then nothing of that append was written); otherwise the run's
 * earlier appends are stored, and one still in flight when the lease was lost may be stored too.
 */
export class LeaseLostError extends ConcurrentUpdateError {
  /** True when the store refused an append carrying this lease: nothing of that append was written. */
  readonly appendRefused: boolean;

  constructor(
    sessionId: string,
    /** The fencing token of the lease this run held. */
    readonly token: number,
    /** The session's current token, when the store knows it. */
    readonly currentToken?: number,
    /** The current holder, when there is one. */
    readonly owner?: string,
    options?: { cause?: unknown; appendRefused?: boolean },
  ) {
    super(sessionId, -1, -1);
    if (options?.cause !== undefined) Object.defineProperty(this, 'cause', { value: options.cause, configurable: true, writable: true });
    this.appendRefused = options?.appendRefused === true;
    const now =
      owner !== undefined
        ? ` now held by "${owner}" (token ${currentToken})`
        : currentToken !== undefined
          ? ` (current token ${currentToken})`
          : '';
    const written = this.appendRefused
      ? 'the store refused this append: nothing of it was written.'
      : 'what this run stored before is kept; an append still in flight when the lease was lost may or may not be stored (a resume reads the session as stored).';
    this.message =
      `Session "${sessionId}": this run's lease (token ${token}) is no longer current${now}; ${written} ` +
      'Another run may have taken the session over after the lease expired unrenewed: stop this one, and let the new holder finish.';
  }
}

/** No session under this key. `inMemory`: it was looked up in a `Runner`'s default in-memory store, which the message then names. */
export class SessionNotFoundError extends ReplanError {
  constructor(
    readonly appName: string,
    readonly userId: string,
    readonly sessionId: string,
    options?: { readonly inMemory?: boolean },
  ) {
    super(
      `No session "${sessionId}" for user "${userId}" in app "${appName}". ` +
        (options?.inMemory
          ? 'This Runner was given no sessionStore, so it keeps sessions in memory, in this process only: a session run by ' +
            'another process (or another Runner) is not there. Give every Runner that shares sessions the same durable store, ' +
            'e.g. sessionStore: new FileSessionStore({ dir }) or a PostgresSessionStore.'
          : 'Check the ids, or start a new run with runner.run().'),
    );
  }
}

export class SessionExistsError extends ReplanError {
  constructor(readonly sessionId: string) {
    super(`Session "${sessionId}" already exists; append to it instead of creating it again.`);
  }
}

/** A stored session record is unreadable: corrupt, or written by an unknown schema version. */
export class SessionCorruptError extends ReplanError {
  constructor(
    readonly sessionId: string,
    readonly detail: string,
    readonly eventId?: string,
    options?: { cause?: unknown },
  ) {
    super(
      `Session "${sessionId}" is corrupt${eventId ? ` at event "${eventId}"` : ''}: ${detail}. ` +
        'Restore it from a backup or delete it; replan will not guess at its contents.',
      options,
    );
  }
}

/**
 * The session store itself failed (I/O, connection). Nothing partial was written.
 *
 * `kind` says what failed: `'connection'` — the store could not be reached or lost its
 * connection (retry or `runner.resume` once it is back; what was acknowledged is stored);
 * `'data'` — the store refused the data itself (retrying the same data fails again);
 * `'other'` — anything else (I/O, configuration). Stores that do not tell them apart use `'other'`.
 */
export class SessionStoreError extends ReplanError {
  readonly kind: 'connection' | 'data' | 'other';
  constructor(message: string, options?: { cause?: unknown; kind?: 'connection' | 'data' | 'other' }) {
    super(message, options);
    this.kind = options?.kind ?? 'other';
  }
}
