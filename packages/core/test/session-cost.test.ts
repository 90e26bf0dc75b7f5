import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { InMemorySessionStore, ReActAgent, Runner, costOfEvent, tool } from '@replan/core';
import { ScriptedModel, callTools } from '@replan/core/testing';
import { modelOfEvent } from '../src/runner/session-totals.js';

const send = tool({ name: 'send', description: 'needs approval', parameters: z.object({}), needsApproval: true, execute: () => 'sent' });
const prices = { m: { inputPerMillion: 2, outputPerMillion: 10 } };

describe('session cost from stored events', () => {
  it('stores the model id and provider with each model response that reports usage', async () => {
    const model = Object.assign(new ScriptedModel({ id: 'm', responses: ['done'] }), { provider: 'acme' });
    const runner = new Runner({ agent: new ReActAgent({ name: 'a', model }), appName: 'x' });
    const result = await runner.run({ userId: 'u', sessionId: 's', input: 'go' }).result();
    const session = await runner.sessionStore.get({ appName: 'x', userId: 'u', id: result.sessionId });
    const priced = session!.events.filter((e) => e.usage);
    expect(priced).toHaveLength(1);
    expect(modelOfEvent(priced[0]!)).toEqual({ id: 'm', provider: 'acme' });
  });

  it('prices a session across a resume in another runner: the sum of both runs', async () => {
    const model = new ScriptedModel({
      id: 'm',
      responses: [callTools({ name: 'send', args: {} }), 'ok'],
      usage: { inputTokens: 1_000, outputTokens: 100 },
    });
    const agent = new ReActAgent({ name: 'a', model, tools: [send] });
    const store = new InMemorySessionStore();
    const r1 = await new Runner({ agent, appName: 'x', sessionStore: store, prices })
      .run({ userId: 'u', sessionId: 's', input: 'go' })
      .result();
    expect(r1.status).toBe('interrupted');
    const other = new Runner({ agent, appName: 'x', sessionStore: store, prices });
    const r2 = await other.resume({ userId: 'u', sessionId: 's', values: { [r1.interrupts[0]!.id]: true } }).result();
    expect(r2.status).toBe('completed');
    // (1000 × 2 + 100 × 10) / 1e6 = 0.003 per call
    expect(r1.cost).toBeCloseTo(0.003, 12);
    expect(r2.cost).toBeCloseTo(0.003, 12);
    expect(r2.session.cost).toBeCloseTo(r1.cost + r2.cost, 12);
    expect(r2.session.unpricedModelCalls).toBe(0);
  });

  it('flags responses it cannot price: a model missing from the table, or no stored model id', async () => {
    const model = new ScriptedModel({ id: 'unknown', responses: ['done'] });
    const runner = new Runner({ agent: new ReActAgent({ name: 'a', model }), appName: 'x', prices });
    const result = await runner.run({ userId: 'u', input: 'go' }).result();
    expect(result.session).toMatchObject({ modelCalls: 1, cost: 0, unpricedModelCalls: 1 });

    const legacy = { id: 'e', author: 'a', invocationId: 'i', timestamp: 0, usage: { inputTokens: 1, outputTokens: 1 } };
    expect(costOfEvent(legacy as never, prices)).toBeUndefined();
    expect(costOfEvent({ ...legacy, meta: { model: { id: 'm' } } } as never, prices)).toBeCloseTo(12 / 1e6, 15);
  });
});
