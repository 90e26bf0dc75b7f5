import { describe, expect, it } from 'vitest';

// Listed so that a change to the public surface is a visible diff.
describe('public surface of @replan/studio', () => {
  it('exports serveStudio and its errors (the CLI is the `replan` bin, not an export)', async () => {
    expect(Object.keys(await import('@replan/studio')).sort()).toEqual(['StudioError', 'serveStudio']);
  });
});
