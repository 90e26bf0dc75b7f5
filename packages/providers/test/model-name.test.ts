import { ConfigurationError } from '@replan/core';
import { OpenAIChatModel, OpenAIResponsesModel } from '@replan/providers';
import { describe, expect, it } from 'vitest';

describe('a provider model without a model name', () => {
  for (const Model of [OpenAIChatModel, OpenAIResponsesModel])
    for (const [what, model] of [
      ['undefined', undefined],
      ['empty', ''],
      ['blank', '  '],
      ['not a string', 42],
    ] as const)
      it(`${Model.name}: ${what} is a ConfigurationError at construction, saying what to pass`, () => {
        const make = () => new Model({ model: model as unknown as string, apiKey: 'k', baseURL: 'http://127.0.0.1:9/v1' });
        expect(make).toThrow(ConfigurationError);
        expect(make).toThrow(new RegExp(`new ${Model.name}\\(\\{ model \\}\\) needs the model's name as a non-empty string`));
      });

  it('still takes a named model', () => {
    expect(new OpenAIChatModel({ model: 'gpt-4o-mini', apiKey: 'k' }).id).toBe('gpt-4o-mini');
  });
});
