import { afterEach, describe } from 'vitest';
import { useTestPostgres } from '../../../packages/postgres/test/support/use-test-postgres.js';
import { killLeaseChildren } from './support/lease-child.js';
import { resumeAtOnceAfterKill, resumeRefusedDuringLongToolCall, zombieFencedAfterTakeover } from './support/lease-scenarios.js';
import { postgresTarget } from './support/store-target.js';

const db = useTestPostgres();
const postgres = postgresTarget(
  () => db.connectionString,
  () => db.freshSchema('lease'),
);

afterEach(killLeaseChildren);

describe('PostgresSessionStore leases across processes', () => {
  db.it(
    'refuses Runner.resume from another process during a long tool call of a live run (SessionBusyError), nothing written',
    () => resumeRefusedDuringLongToolCall(postgres),
    60_000,
  );
  db.it(
    'fences a run paused past its lease (SIGSTOP): another process takes over and completes; the woken zombie fails with LeaseLostError, appending nothing',
    () => zombieFencedAfterTakeover(postgres, { fakeHeartbeat: false }),
    60_000,
  );
  db.it(
    "refuses the zombie's appends in the store itself when its own expiry check never fires",
    () => zombieFencedAfterTakeover(postgres, { fakeHeartbeat: true }),
    60_000,
  );
  db.it(
    'resumes at once in a new process after the holder was killed (SIGKILL), without waiting for its minute-long lease',
    () => resumeAtOnceAfterKill(postgres),
    60_000,
  );
});
