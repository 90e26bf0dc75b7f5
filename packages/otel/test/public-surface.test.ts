import { describe, expect, it } from 'vitest';

// Listed so that a change to the public surface is a visible diff. Attribute names and the
// trace-parent helpers stay internal (an application reads them from the spans).
describe('public surface of @replan/otel', () => {
  it('exports only the observer factory', async () => {
    expect(Object.keys(await import('@replan/otel')).sort()).toEqual(['openTelemetry']);
  });
});
