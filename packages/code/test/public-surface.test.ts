import { describe, expect, it } from 'vitest';

// Listed so that a change to the public surface is a visible diff (types: CodeToolOptions, CodeResult, CodeLimits).
describe('public surface of @replan/code', () => {
  it('exports codeTool and its one error class', async () => {
    expect(Object.keys(await import('@replan/code')).sort()).toEqual(['CodeReplayMismatchError', 'codeTool']);
  });
});
