import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { addUsage, InMemorySessionStore, promptCacheKey, ReActAgent, Runner, tool, promptCache } from '@replan/core';
import { ScriptedModel, callTools } from '@replan/core/testing';

const echo = tool({ name: 'echo', description: 'Echoes', parameters: z.object({ v: z.string() }), execute: ({ v }) => v });

describe('ReActAgent promptCache', () => {
  it('every request of a run carries one key per session and agent, and the retention', async () => {
    const model = new ScriptedModel({ responses: [callTools({ name: 'echo', args: { v: 'x' } }), 'done'] });
    const agent = new ReActAgent({ name: 'worker', model, tools: [echo], middleware: [promptCache({ retention: 'long' })] });
    const runner = new Runner({ agent, appName: 'x', sessionStore: new InMemorySessionStore() });
    const result = await runner.run({ userId: 'u', sessionId: 's-1', input: 'go' }).result();
    expect(result.status).toBe('completed');
    expect(model.requests.map((r) => r.cache)).toEqual([
      { key: 'worker:s-1', retention: 'long' },
      { key: 'worker:s-1', retention: 'long' },
    ]);
  });

  it('takes a key or a function of the run; without promptCache no request has cache', async () => {
    const fixed = new ScriptedModel({ responses: ['a'] });
    await new Runner({ agent: new ReActAgent({ name: 'a', model: fixed, middleware: [promptCache({ key: 'mine' })] }), appName: 'x' })
      .run({ userId: 'u', input: 'go' })
      .result();
    expect(fixed.requests[0]?.cache).toEqual({ key: 'mine' });

    const computed = new ScriptedModel({ responses: ['a'] });
    const key = (ctx: { session: { userId: string } }) => `user:${ctx.session.userId}`;
    await new Runner({ agent: new ReActAgent({ name: 'a', model: computed, middleware: [promptCache({ key })] }), appName: 'x' })
      .run({ userId: 'u7', input: 'go' })
      .result();
    expect(computed.requests[0]?.cache).toEqual({ key: 'user:u7' });

    const off = new ScriptedModel({ responses: ['a'] });
    await new Runner({ agent: new ReActAgent({ name: 'a', model: off }), appName: 'x' }).run({ userId: 'u', input: 'go' }).result();
    expect(off.requests[0]).not.toHaveProperty('cache');
  });

  it('promptCacheKey stays within 64 characters and apart for other sessions', () => {
    expect(promptCacheKey('s-1', 'executor')).toBe('executor:s-1');
    const long = promptCacheKey('x'.repeat(256), 'executor');
    expect(long.length).toBeLessThanOrEqual(64);
    expect(long.startsWith('executor:')).toBe(true);
    expect(promptCacheKey(`${'x'.repeat(255)}y`, 'executor')).not.toBe(long);
  });
});

describe('cost with cache prices', () => {
  const prices = { m: { inputPerMillion: 3, outputPerMillion: 15, cachedInputPerMillion: 0.3, cacheWritePerMillion: 3.75 } };

  it('RunResult.cost prices cached input and cache writes at their own rates', async () => {
    const usage = { inputTokens: 10_000, outputTokens: 1_000, cachedTokens: 6_000, cacheWriteTokens: 3_000 };
    const model = new ScriptedModel({ id: 'm', responses: [callTools({ name: 'echo', args: { v: 'x' } }), 'done'], usage });
    const runner = new Runner({ agent: new ReActAgent({ name: 'a', model, tools: [echo] }), appName: 'x', prices });
    const result = await runner.run({ userId: 'u', input: 'go' }).result();
    // (1 000 × 3 + 6 000 × 0.3 + 3 000 × 3.75 + 1 000 × 15) / 1e6 = 0.03105 per call
    expect(result.cost).toBeCloseTo(0.0621, 12);
    expect(result.usage).toMatchObject({ inputTokens: 20_000, cachedTokens: 12_000, cacheWriteTokens: 6_000 });
  });

  it('a report with more cached and written tokens than input never prices input below zero', async () => {
    const usage = { inputTokens: 1_000, outputTokens: 0, cachedTokens: 800, cacheWriteTokens: 900 };
    const model = new ScriptedModel({ id: 'm', responses: ['done'], usage });
    const runner = new Runner({ agent: new ReActAgent({ name: 'a', model }), appName: 'x', prices });
    // 800 cached, the 200 left are writes, nothing at the input price: (800 × 0.3 + 200 × 3.75) / 1e6
    expect((await runner.run({ userId: 'u', input: 'go' }).result()).cost).toBeCloseTo(0.00099, 12);
  });

  it('without cache prices, cache writes cost the input price', async () => {
    const usage = { inputTokens: 1_000_000, outputTokens: 0, cacheWriteTokens: 500_000 };
    const model = new ScriptedModel({ id: 'm', responses: ['done'], usage });
    const runner = new Runner({
      agent: new ReActAgent({ name: 'a', model }),
      appName: 'x',
      prices: { m: { inputPerMillion: 2, outputPerMillion: 0 } },
    });
    expect((await runner.run({ userId: 'u', input: 'go' }).result()).cost).toBe(2);
  });

  it('addUsage sums cache writes', () => {
    expect(addUsage({ inputTokens: 1, outputTokens: 0, cacheWriteTokens: 2 }, { inputTokens: 1, outputTokens: 0 })).toEqual({
      inputTokens: 2,
      outputTokens: 0,
      cacheWriteTokens: 2,
    });
  });
});
