import { describe, expect, it } from 'vitest';
import { ConfigurationError, ReActAgent, Runner } from '@replan/core';
import { ScriptedModel } from '@replan/core/testing';

const agent = () => new ReActAgent({ name: 'a', model: new ScriptedModel({ id: 'm', responses: ['done'] }) });
const wrong = [
  ['a missing rate', { m: { inputPerMillion: 2 } }],
  ['a NaN rate', { m: { inputPerMillion: Number.NaN, outputPerMillion: 1 } }],
  ['a negative rate', { m: { inputPerMillion: 1, outputPerMillion: -1 } }],
  ['a rate given as text', { m: { inputPerMillion: '2', outputPerMillion: 1 } }],
  ['a wrong optional rate', { m: { inputPerMillion: 1, outputPerMillion: 1, cachedInputPerMillion: Number.POSITIVE_INFINITY } }],
  ['a model without a price', { m: null }],
] as const;

describe('price tables', () => {
  it.each(wrong)('new Runner refuses %s, naming the model id', (_, prices) => {
    const build = () => new Runner({ agent: agent(), appName: 'x', prices: prices as never });
    expect(build).toThrow(ConfigurationError);
    expect(build).toThrow(/"m".*|check "m"/);
  });

  it.each(wrong)('a run refuses %s in limits.prices before any model call; nothing is priced as NaN', async (_, prices) => {
    const model = new ScriptedModel({ id: 'm', responses: ['done'] });
    const runner = new Runner({ agent: new ReActAgent({ name: 'a', model }), appName: 'x' });
    const outcome = await runner
      .run({ userId: 'u', input: 'go', limits: { maxCost: 1, prices: prices as never } })
      .result()
      .then(
        (result) => result.error,
        (error: unknown) => error,
      );
    expect(outcome).toBeInstanceOf(ConfigurationError);
    expect(String((outcome as Error).message)).toMatch(/limits\.prices.*check "m"/);
    expect(model.requests).toHaveLength(0);
  });

  it('a whole table prices as before', async () => {
    const model = new ScriptedModel({ id: 'm', responses: ['done'], usage: { inputTokens: 1_000_000, outputTokens: 0 } });
    const prices = { m: { inputPerMillion: 2, outputPerMillion: 10, cachedInputPerMillion: 0 } };
    const result = await new Runner({ agent: new ReActAgent({ name: 'a', model }), appName: 'x', prices })
      .run({ userId: 'u', input: 'go' })
      .result();
    expect(result.cost).toBe(2);
  });
});
