import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';

/**
 * A SIGKILLed child is gone when its `close` event fires, but a PostgreSQL statement it had
 * already sent is not: the server runs it to the end (an append is one autocommit statement, so it
 * commits) and only then finds the client gone. A harness that reads the session right after the
 * kill can miss a write that the next process, started a moment later, finds stored. So each
 * child's connections carry a tag (`application_name`, which `pg` takes from `PGAPPNAME`), and
 * after a kill the harness waits until no server process of that tag is left.
 */

/** A new `application_name` for one child's connections (unique, within PostgreSQL's 63 bytes). */
export const connectionTag = (label: string): string => `e2e:${label.slice(0, 24)}:${randomUUID()}`;

/** How long a killed child's last statement may take to finish in the server (a loaded CI machine). */
const SETTLE_LIMIT_MS = 60_000;
const POLL_MS = 20;

/**
 * Resolves once the server has no connection tagged `tag` (see `connectionTag`): whatever the
 * child sent has committed or rolled back, so every later read sees all it will ever write.
 */
export async function connectionsClosed(connectionString: string, tag: string): Promise<void> {
  const client = new pg.Client({ connectionString, application_name: 'e2e:harness' });
  await client.connect();
  try {
    const until = Date.now() + SETTLE_LIMIT_MS;
    for (;;) {
      const { rows } = await client.query<{ n: number }>('SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = $1', [
        tag,
      ]);
      if (rows[0]?.n === 0) return;
      if (Date.now() > until)
        throw new Error(
          `a killed child's PostgreSQL connections (application_name ${tag}) were still open after ${SETTLE_LIMIT_MS} ms: ` +
            'look for a statement of it stuck on a lock (pg_stat_activity.wait_event).',
        );
      await sleep(POLL_MS);
    }
  } finally {
    await client.end();
  }
}
