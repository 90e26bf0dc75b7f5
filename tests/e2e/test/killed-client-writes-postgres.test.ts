import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { describe, expect } from 'vitest';
import { useTestPostgres } from '../../../packages/postgres/test/support/use-test-postgres.js';
import { connectionsClosed, connectionTag } from './support/child-connections.js';

const db = useTestPostgres();
const here = fileURLToPath(new URL('..', import.meta.url));

/** A client process that connects (tagged) and sends one UPDATE, which a trigger keeps busy for seconds. */
const CLIENT = `
import pg from 'pg';
const client = new pg.Client({ connectionString: process.argv[1] });
await client.connect();
await client.query('UPDATE killed_writes SET n = n + 1 WHERE id = 1');
`;

/** Long enough for the reads right after the kill to come before the UPDATE ends, on a loaded machine. */
const SLOW_S = 3;

const count = async (sql: pg.Client, query: string, values: unknown[] = []) => (await sql.query<{ n: number }>(query, values)).rows[0]?.n;

describe('a SIGKILLed client and PostgreSQL (why the kill tests wait after each kill)', () => {
  db.it(
    'a statement the client had sent commits after the process is gone; connectionsClosed returns only once it has',
    async () => {
      const sql = new pg.Client({ connectionString: db.connectionString });
      await sql.connect();
      try {
        // The UPDATE runs on in the server for SLOW_S seconds after the client has sent it.
        await sql.query(`
          DROP TABLE IF EXISTS killed_writes;
          CREATE TABLE killed_writes (id int PRIMARY KEY, n int NOT NULL);
          INSERT INTO killed_writes VALUES (1, 0);
          CREATE OR REPLACE FUNCTION killed_writes_slow() RETURNS trigger LANGUAGE plpgsql
            AS $$ BEGIN PERFORM pg_sleep(${SLOW_S}); RETURN NEW; END $$;
          CREATE TRIGGER slow BEFORE UPDATE ON killed_writes FOR EACH ROW EXECUTE FUNCTION killed_writes_slow();`);

        const tag = connectionTag('client');
        const child = spawn(process.execPath, ['--input-type=module', '-e', CLIENT, db.connectionString], {
          cwd: here,
          env: { ...process.env, PGAPPNAME: tag },
          stdio: 'ignore',
        });
        const exited = once(child, 'close');
        const sleeping = `SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = $1 AND wait_event = 'PgSleep'`;
        for (let i = 0; (await count(sql, sleeping, [tag])) !== 1; i++) {
          if (i > 1500) throw new Error('the client never sent its UPDATE');
          await sleep(20);
        }
        child.kill('SIGKILL');
        await exited;

        // The process is gone; its statement is not: it still runs in the server.
        expect(await count(sql, 'SELECT n FROM killed_writes WHERE id = 1')).toBe(0);
        await connectionsClosed(db.connectionString, tag);
        // It committed: a read after connectionsClosed sees it, as the next process would.
        expect(await count(sql, 'SELECT n FROM killed_writes WHERE id = 1')).toBe(1);
      } finally {
        await sql.end();
      }
    },
    90_000,
  );
});
