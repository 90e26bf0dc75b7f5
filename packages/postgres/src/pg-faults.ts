import { ReplanError, SessionStoreError } from '@replan/core';

/** What a failure of PostgreSQL (or of the way to it) was: see `SessionStoreError.kind`. */
export type FaultKind = 'connection' | 'data' | 'other';

/** Node socket errors meaning the server could not be reached or went away. */
const SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/** SQLSTATEs outside class 08 that mean the session was cut: admin/crash/cannot-connect-now shutdown, too many connections. */
const CONNECTION_STATES = new Set(['57P01', '57P02', '57P03', '53300']);

/** Messages node-postgres gives a connection it lost or never got (they carry no code). */
const CONNECTION_MESSAGES = /^(Connection terminated|Client has encountered a connection error|timeout expired|Query read timeout)/;

/** lock_not_available (a `lock_timeout` ran out) and query_canceled (a `statement_timeout`): the statement was rolled back. */
const LOCK_TIMEOUT = '55P03';
const STATEMENT_TIMEOUT = '57014';

const codeOf = (error: unknown): string => String((error as { code?: unknown } | null)?.code ?? '');

/**
 * Tells a lost or refused connection (retrying later can work) from data PostgreSQL refused
 * (retrying the same data fails again): SQLSTATE class 08, 57P01–03, 53300 and socket errors are
 * the connection; classes 22 (data exception, e.g. 22021 a NUL in text), 23 (constraint) and 54
 * (a program limit, e.g. an index row too large) are the data.
 */
export function classifyFault(error: unknown): FaultKind {
  if (error instanceof ReplanError) return error instanceof SessionStoreError ? error.kind : 'other';
  const code = codeOf(error);
  if (code.startsWith('08') || CONNECTION_STATES.has(code) || SOCKET_CODES.has(code)) return 'connection';
  if (/^(22|23|54)/.test(code)) return 'data';
  if (!code && error instanceof Error && CONNECTION_MESSAGES.test(error.message)) return 'connection';
  return 'other';
}

const ID_SHOWN = 64;

/** An id as messages show it: whole up to 64 characters, else its start and its length. */
export function shortId(id: string): string {
  return id.length <= ID_SHOWN ? `"${id}"` : `"${id.slice(0, ID_SHOWN)}…" (${id.length} characters)`;
}

/** Server messages can quote what they refused; at most this much of one goes into ours. */
const shortText = (text: string, max = 300) => (text.length <= max ? text : `${text.slice(0, max)}… (${text.length} characters)`);

/** What to do about a data fault PostgreSQL reported, by SQLSTATE. */
function dataAdvice(code: string): string {
  if (code === '22021' || code === '22P05')
    return 'A string (an id, an event id or a state key) holds a character PostgreSQL text cannot store (NUL, \\u0000); remove it.';
  if (code === '54000')
    return 'A value is too large for PostgreSQL (an index row holds at most about 2,700 bytes): shorten the id, event id or state key, or drop the index a schema change added.';
  if (code.startsWith('23')) return 'The data broke a constraint of the tables; check that the schema was only changed by migrate().';
  return 'Retrying the same data will fail again; change the data.';
}

/**
 * Turns a failure of `what` (e.g. "append to") into a `SessionStoreError` whose message and `kind`
 * say whether the connection or the data failed, with long ids cut.
 */
export function storeFault(error: unknown, what: string, sessionId: string | undefined, schema: string): SessionStoreError {
  const kind = classifyFault(error);
  const code = codeOf(error);
  const target = sessionId === undefined ? '' : ` session ${shortId(sessionId)}`;
  const cause = shortText((error as Error | null)?.message ?? String(error)) + (code ? ` (${code})` : '');
  const where = `PostgreSQL session store (schema ${schema})`;
  if (kind === 'connection')
    return new SessionStoreError(
      `${where} lost or could not open its connection to the database while trying to ${what}${target}: ${cause}. ` +
        'Check the connection settings and that the database is up, then retry (runner.resume continues a run): ' +
        'everything acknowledged before is stored; an append that failed this way may or may not be stored, and a resume reloads the session.',
      { cause: error, kind },
    );
  if (code === LOCK_TIMEOUT || code === STATEMENT_TIMEOUT)
    return new SessionStoreError(
      `${where} could not ${what}${target}: ${cause}. The statement waited too long for a row another connection holds ` +
        'locked and was rolled back: nothing was written. Retry (runner.resume continues a run). If it keeps happening, ' +
        "a client holds a transaction open on those rows: find it in pg_stat_activity (state 'idle in transaction') and end it, " +
        'or lower its idle_in_transaction_session_timeout; lockTimeoutMs sets how long this store waits.',
      { cause: error, kind },
    );
  if (kind === 'data')
    return new SessionStoreError(
      `${where} could not ${what}${target}: the database refused the data: ${cause}. Nothing was written. ${dataAdvice(code)}`,
      { cause: error, kind },
    );
  return new SessionStoreError(
    `${where} could not ${what}${target}: ${cause}. Nothing was written. ` +
      'Check that the schema is the one migrate() created and that the database user may use it.',
    { cause: error, kind },
  );
}
