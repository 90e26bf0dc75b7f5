import { describe, it } from 'vitest';
import { useTestPostgres } from '../../../packages/postgres/test/support/use-test-postgres.js';
import { resumeOfDamagedSession, resumeOfTornFile, resumeOfUnknownOrForeignSession } from './support/damaged-session-checks.js';
import { fileTarget, postgresTarget } from './support/store-target.js';

const db = useTestPostgres();
const postgres = postgresTarget(
  () => db.connectionString,
  () => db.freshSchema('damaged'),
);

describe('resuming a damaged or foreign session in a new process: FileSessionStore', () => {
  it('a corrupt event: SessionCorruptError naming session and event, before anything runs', () =>
    resumeOfDamagedSession(fileTarget, 'garbage'));
  it('an event of a foreign schema version: SessionCorruptError, before anything runs', () =>
    resumeOfDamagedSession(fileTarget, 'foreign-version'));
  it('a torn last line: ignored; the run asks again and completes', () => resumeOfTornFile(fileTarget));
  it('an unknown session or another user’s: SessionNotFoundError, nothing changes', () => resumeOfUnknownOrForeignSession(fileTarget));
});

describe('resuming a damaged or foreign session in a new process: PostgresSessionStore', () => {
  db.it('a corrupt event: SessionCorruptError naming session and event, before anything runs', () =>
    resumeOfDamagedSession(postgres, 'garbage'),
  );
  db.it('an event of a foreign schema version: SessionCorruptError, before anything runs', () =>
    resumeOfDamagedSession(postgres, 'foreign-version'),
  );
  db.it('an unknown session or another user’s: SessionNotFoundError, nothing changes', () => resumeOfUnknownOrForeignSession(postgres));
});
