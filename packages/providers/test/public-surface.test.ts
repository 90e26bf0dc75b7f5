import { describe, expect, it } from 'vitest';

// Listed so that a change to the public surface is a visible diff: models, their configuration and
// typed errors; request builders and stream accumulators stay internal.
describe('public surface of @replan/providers', () => {
  it('exports the models, modelFromEnv, the client factory, profile names, retry defaults and the media and schema errors (a failed call is core ModelError)', async () => {
    expect(Object.keys(await import('@replan/providers')).sort()).toEqual([
      'DEFAULT_CONNECTION_RETRIES',
      'DEFAULT_MAX_RETRIES',
      'MEDIA_PROFILES',
      'OpenAIChatModel',
      'OpenAIResponsesModel',
      'PROMPT_CACHING',
      'PROVIDER_PROFILES',
      'UnsupportedMediaError',
      'createOpenAIClient',
      'discoverContextWindow',
      'discoverModelFromEnv',
      'modelFromEnv',
    ]);
  });
});
