import { ReplanError } from '@replan/core';

/** Run ids as the errors name them. */
interface RunKey {
  readonly appName: string;
  readonly userId: string;
  readonly sessionId: string;
}

const named = (key: RunKey) => `session "${key.sessionId}" (app "${key.appName}", user "${key.userId}")`;

/**
 * What went wrong with a DBOS-run session:
 * - `not_found`: no DBOS run was ever started for this session (`result`, `events`, `answer`, `cancel`);
 * - `finished`: `answer` for a run that has already ended (`status`): nothing waits for the answer,
 *   so nothing was sent;
 * - `session_deleted`: the run's session was deleted while the run was under way (waiting for an
 *   answer, say, or being taken over): the run ends with status `deleted` and is not started over;
 * - `unreachable`: DBOS could not reach its system database at launch; `connection` names it
 *   (without its password): check that PostgreSQL runs there and the URL is right.
 */
export type DbosErrorKind = 'not_found' | 'finished' | 'session_deleted' | 'unreachable';

/** A DBOS-run session cannot be used as asked; `kind` says why, the message what to do. The one error class of `@replan/dbos`. */
export class DbosError extends ReplanError {
  private constructor(
    readonly kind: DbosErrorKind,
    message: string,
    /** The run's session (every kind but `unreachable`). */
    readonly key: RunKey | undefined,
    /** How the run ended (`finished`). */
    readonly status: string | undefined,
    /** The system database, password masked (`unreachable`). */
    readonly connection: string | undefined,
    cause?: unknown,
  ) {
    super(message, cause !== undefined ? { cause } : undefined);
  }

  static notFound(key: RunKey): DbosError {
    return new DbosError('not_found', `No DBOS run for ${named(key)}; start one with runs.start().`, key, undefined, undefined);
  }

  static finished(key: RunKey, status: string): DbosError {
    return new DbosError(
      'finished',
      `The run of ${named(key)} already ended (${status}); nothing was sent. Start a new session to ask again.`,
      key,
      status,
      undefined,
    );
  }

  static sessionDeleted(key: RunKey): DbosError {
    return new DbosError(
      'session_deleted',
      `The session ${named(key)} was deleted while its run was under way; the run ended and nothing was rerun. Start a new session to run again.`,
      key,
      undefined,
      undefined,
    );
  }

  static unreachable(connection: string, cause: unknown): DbosError {
    return new DbosError(
      'unreachable',
      `DBOS could not reach its system database at ${connection}: ${(cause as Error)?.message ?? String(cause)}. ` +
        'Start PostgreSQL there or fix systemDatabaseUrl; no worker was started.',
      undefined,
      undefined,
      connection,
      cause,
    );
  }
}

/** A connection string with its password masked, for messages and logs. */
export function safeConnection(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return '(an unparseable connection string)';
  }
}
