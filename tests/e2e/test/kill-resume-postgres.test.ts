import { describe } from 'vitest';
import { useTestPostgres } from '../../../packages/postgres/test/support/use-test-postgres.js';
import { graphKills } from './support/graph-kill-scenario.js';
import { killEverywhere } from './support/kill-everywhere.js';
import { linearKills } from './support/linear-kill-scenario.js';
import { postgresTarget } from './support/store-target.js';

const db = useTestPostgres();
const postgres = postgresTarget(
  () => db.connectionString,
  () => db.freshSchema('kill'),
);

describe('PostgresSessionStore: SIGKILL at any point of a plan–execute run, then resume in a new process', () => {
  db.it(
    'every run ends as the uninterrupted one; completed work never runs again; each side effect exactly once',
    () => killEverywhere(postgres, linearKills),
    300_000,
  );
  db.it(
    'graph mode, killed before, inside and after its parallel waves: the same per-step events and state, no finished step or tool re-run',
    () => killEverywhere(postgres, graphKills),
    300_000,
  );
});
