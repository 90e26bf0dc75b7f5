import { describe, expect, it } from 'vitest';

// Listed so that a change to the public surface is a visible diff: models, their configuration and
// typed errors; request builders and stream accumulators stay internal.
describe('public surface of @replan/providers', () => {
  it('exports the models, modelFromEnv, the client factory and context-window discovery', async () => {
    expect(Object.keys(await import('@replan/providers')).sort()).toEqual([
      'OpenAIChatModel',
      'OpenAIResponsesModel',
      'createOpenAIClient',
      'discoverContextWindow',
      'discoverModelFromEnv',
      'modelFromEnv',
    ]);
  });
});
