import { describe, it } from 'vitest';
import { useTestPostgres } from '../../../packages/postgres/test/support/use-test-postgres.js';
import { nestedApprovalAcrossProcesses, nestedKilledBeforeOuterResult } from './support/nested-approval-flow.js';
import { fileTarget, postgresTarget } from './support/store-target.js';

const db = useTestPostgres();
const postgres = postgresTarget(
  () => db.connectionString,
  () => db.freshSchema('nested'),
);

describe('an approval inside an agent used as a tool, across processes: FileSessionStore', () => {
  it('approved in another process: the inner tool runs once, inner then outer complete once', () =>
    nestedApprovalAcrossProcesses(fileTarget));
  it('killed after the child finished, before the outer result was stored: the stored child answer is used', () =>
    nestedKilledBeforeOuterResult(fileTarget));
});

describe('an approval inside an agent used as a tool, across processes: PostgresSessionStore', () => {
  db.it('approved in another process: the inner tool runs once, inner then outer complete once', () =>
    nestedApprovalAcrossProcesses(postgres),
  );
  db.it('killed after the child finished, before the outer result was stored: the stored child answer is used', () =>
    nestedKilledBeforeOuterResult(postgres),
  );
});
