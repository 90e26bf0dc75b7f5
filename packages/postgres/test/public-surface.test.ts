import { describe, expect, it } from 'vitest';

// Listed so that a change to the public surface is a visible diff.
describe('public surface of @replan/postgres', () => {
  it('exports the store and its migrations (runs on many workers: @replan/dbos)', async () => {
    expect(Object.keys(await import('@replan/postgres')).sort()).toEqual(['MIGRATIONS', 'PostgresSessionStore']);
  });
});
