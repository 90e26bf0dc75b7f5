import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, it as vitestIt } from 'vitest';
import { startTestPostgres, type TestPostgres, type TestPostgresOptions } from './test-postgres.js';

/** One throwaway cluster for a test file, and helpers to isolate each test in it. */
export interface PostgresFixture {
  /** The cluster's connection string (only inside tests registered with `it`). */
  readonly connectionString: string;
  /** Like vitest's `it`, but skips when no cluster could start (never in CI: there it fails). */
  readonly it: (name: string, body: () => Promise<void> | void, timeout?: number) => void;
  /** A new unique schema name, so each test gets its own tables. */
  freshSchema(prefix?: string): string;
  /** Kills the server (immediate shutdown), keeping its data; `restart()` brings it back. */
  crash(): Promise<void>;
  restart(): Promise<void>;
}

/**
 * Starts a cluster in `beforeAll` and stops it in `afterAll`. When PostgreSQL cannot start, the
 * tests fail if `CI=true`; elsewhere they are skipped with a loud warning.
 */
export function useTestPostgres(options: TestPostgresOptions = {}): PostgresFixture {
  let cluster: TestPostgres | undefined;
  let skipReason: string | undefined;
  beforeAll(async () => {
    try {
      cluster = await startTestPostgres(options);
    } catch (error) {
      if (process.env.CI === 'true') throw error;
      skipReason = (error as Error).message;
      console.warn(`\n\n*** PostgreSQL tests SKIPPED: ${skipReason}\n*** They run (and must pass) when CI=true.\n`);
    }
  });
  afterAll(async () => {
    await cluster?.stop();
  });
  let n = 0;
  return {
    get connectionString() {
      if (!cluster) throw new Error(`No test PostgreSQL cluster: ${skipReason ?? 'not started yet (use it inside tests)'}`);
      return cluster.connectionString;
    },
    it: (name, body, timeout) =>
      vitestIt(
        name,
        async (ctx) => {
          if (!cluster) return ctx.skip(skipReason);
          await body();
        },
        timeout,
      ),
    crash: async () => cluster?.crash(),
    restart: async () => cluster?.restart(),
    freshSchema: (prefix = 't') => `${prefix}_${++n}_${randomBytes(4).toString('hex')}`,
  };
}
