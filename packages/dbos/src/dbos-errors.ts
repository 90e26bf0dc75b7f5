import { ReplanError } from '@replan/core';

/** Run ids as the errors name them. */
interface RunKey {
  readonly appName: string;
  readonly userId: string;
  readonly sessionId: string;
}

const named = (key: RunKey) => `session "${key.sessionId}" (app "${key.appName}", user "${key.userId}")`;

/** No DBOS run was ever started for this session (`result`, `events`, `answer`, `cancel`). */
export class RunNotFoundError extends ReplanError {
  constructor(readonly key: RunKey) {
    super(`No DBOS run for ${named(key)}; start one with runs.start().`);
  }
}

/** `answer` for a run that has already ended: nothing waits for the answer, so nothing was sent. */
export class RunFinishedError extends ReplanError {
  constructor(
    readonly key: RunKey,
    readonly status: string,
  ) {
    super(`The run of ${named(key)} already ended (${status}); nothing was sent. Start a new session to ask again.`);
  }
}

/**
 * The run's session was deleted while the run was under way (waiting for an answer, say, or
 * being taken over): the run ends with status `deleted` and is not started over.
 */
export class SessionDeletedError extends ReplanError {
  constructor(readonly key: RunKey) {
    super(
      `The session ${named(key)} was deleted while its run was under way; the run ended and nothing was rerun. Start a new session to run again.`,
    );
  }
}

/**
 * DBOS could not reach its system database at launch. The message names the connection (without
 * its password); check that PostgreSQL runs there and the URL is right.
 */
export class DbosUnreachableError extends ReplanError {
  constructor(
    readonly connection: string,
    cause: unknown,
  ) {
    super(
      `DBOS could not reach its system database at ${connection}: ${(cause as Error)?.message ?? String(cause)}. ` +
        'Start PostgreSQL there or fix systemDatabaseUrl; no worker was started.',
      { cause },
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
