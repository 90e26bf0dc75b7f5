import { describe, it } from 'vitest';
import { useTestPostgres } from '../../../packages/postgres/test/support/use-test-postgres.js';
import { approvalAcrossProcesses, twoApproversAtOnce } from './support/approval-flow.js';
import { fileTarget, postgresTarget } from './support/store-target.js';

const db = useTestPostgres();
const postgres = postgresTarget(
  () => db.connectionString,
  () => db.freshSchema('hitl'),
);

describe('human-in-the-loop across processes: FileSessionStore', () => {
  it('approved in another process: the tool runs once and the run completes', () => approvalAcrossProcesses(fileTarget, true));
  it('rejected in another process: the tool never runs, the model is told, the run completes', () =>
    approvalAcrossProcesses(fileTarget, false));
  it('two processes approve at once: one proceeds, the other gets ConcurrentUpdateError', () => twoApproversAtOnce(fileTarget));
});

describe('human-in-the-loop across processes: PostgresSessionStore', () => {
  db.it('approved in another process: the tool runs once and the run completes', () => approvalAcrossProcesses(postgres, true));
  db.it('rejected in another process: the tool never runs, the model is told, the run completes', () =>
    approvalAcrossProcesses(postgres, false),
  );
  db.it('two processes approve at once: one proceeds, the other gets ConcurrentUpdateError', () => twoApproversAtOnce(postgres));
});
