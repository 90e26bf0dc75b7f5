import { describe, expect, it } from 'vitest';

// Listed so that a change to the public surface is a visible diff.
describe('public surface of @replan/dbos', () => {
  it('exports dbosRuns, its class and its typed errors', async () => {
    expect(Object.keys(await import('@replan/dbos')).sort()).toEqual(['DbosError', 'DbosRuns', 'dbosRuns']);
  });
});
