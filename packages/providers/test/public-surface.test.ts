import { describe, expect, it } from 'vitest';

// Listed so that a change to the public surface is a visible diff: models, their configuration and
// typed errors; request builders and stream accumulators stay internal.
describe('public surface of @replan/providers', () => {
  it('exports the models, modelFromEnv, the client factory, profile names, retry defaults and typed errors', async () => {
    expect(Object.keys(await import('@replan/providers')).sort()).toEqual([
      'DEFAULT_CONNECTION_RETRIES',
      'DEFAULT_MAX_RETRIES',
      'OpenAIChatModel',
      'OpenAIResponsesModel',
      'createOpenAIClient',
      'discoverContextWindow',
      'discoverModelFromEnv',
      'modelFromEnv',
    ]);
  });
});
