import { describe } from 'vitest';
import { useTestPostgres } from '../../../packages/postgres/test/support/use-test-postgres.js';
import { killEverywhere } from './support/kill-everywhere.js';
import { postgresTarget } from './support/store-target.js';

const db = useTestPostgres();

describe('PostgresSessionStore: SIGKILL at any point of a plan–execute run, then resume in a new process', () => {
  db.it(
    'every run ends as the uninterrupted one; completed work never runs again; each side effect exactly once',
    () => killEverywhere(postgresTarget(() => db.connectionString, () => db.freshSchema('kill'))),
    300_000,
  );
});
