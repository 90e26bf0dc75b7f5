import { describe, expect, it } from 'vitest';

// Listed so that a change to the public surface is a visible diff.
describe('public surface of @replan/postgres', () => {
  it('exports the store, its migrations, the run queue, its worker and their errors', async () => {
    expect(Object.keys(await import('@replan/postgres')).sort()).toEqual([
      'MIGRATIONS',
      'PostgresRunQueue',
      'PostgresSessionStore',
      'RunAttemptsExhaustedError',
      'RunInProgressError',
      'RunNotQueuedError',
      'RunQueueClosedError',
      'RunSessionDeletedError',
      'Worker',
    ]);
  });
});
