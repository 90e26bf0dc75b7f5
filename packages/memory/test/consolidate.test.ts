import { describe, expect, it } from 'vitest';
import { InMemorySessionStore, ReActAgent, Runner, tool, type AgentEvent } from '@replan/core';
import { ScriptedModel, callTools, testMiddleware } from '@replan/core/testing';
import { z } from 'zod';
import { ConfigurationError } from '@replan/core';
import { consolidate } from '@replan/memory';
import { ScriptedMemoryStore } from './support/scripted-store.js';

const USER = { appName: 'middleware-test', userId: 'tester' };
const facts = (...list: string[]) => JSON.stringify({ facts: list });
const lookup = tool({ name: 'lookup', description: 'looks up', parameters: z.object({}), execute: () => 'Porto, 3 nights' });

describe('consolidate', () => {
  it('after the answer: one extraction call, recorded with its usage; each fact stored with its source', async () => {
    const store = new ScriptedMemoryStore();
    const extractor = new ScriptedModel({ id: 'cheap', responses: [facts('The user is vegetarian', 'The user travels with a dog')] });
    const run = await testMiddleware(consolidate({ model: extractor, store }), {
      model: [callTools({ name: 'lookup' }), 'Booked Porto; vegetarian, dog-friendly.'],
      tools: [lookup],
      input: "I'm vegetarian and my dog comes along",
    });
    expect(run.result.status).toBe('completed');
    expect(extractor.calls).toBe(1); // not after the tool-call turn, once after the answer
    const [event] = run.recorded('consolidate');
    expect(event?.meta?.memory).toEqual({ facts: ['The user is vegetarian', 'The user travels with a dog'] });
    expect(event?.usage?.inputTokens).toBe(10);
    const sent = JSON.stringify(extractor.requests[0]?.messages);
    expect(sent).toContain("I'm vegetarian and my dog comes along");
    expect(sent).toContain('Booked Porto');
    expect(extractor.requests[0]?.responseFormat?.name).toBe('memories');
    expect(store.items.map((i) => [i.scope, i.kind, i.text, i.source])).toEqual(
      ['The user is vegetarian', 'The user travels with a dog'].map((text) => [
        USER,
        'fact',
        text,
        { sessionId: run.result.sessionId, invocationId: event?.invocationId, eventId: event?.id },
      ]),
    );
  });

  it('done once across a crash: the crash after the call, resume → no second call, no fact stored twice', async () => {
    const store = new ScriptedMemoryStore();
    const sessions = new InMemorySessionStore();
    const extractor = new ScriptedModel({ id: 'cheap', respond: () => facts('fact one', 'fact two') });
    const controller = new AbortController();
    const put = store.put.bind(store);
    store.put = async (memory) => {
      if (store.items.length === 1 && !controller.signal.aborted) {
        controller.abort(new Error('process killed')); // the crash: after the call and the first fact
        throw controller.signal.reason;
      }
      return put(memory);
    };
    const agent = new ReActAgent({
      name: 'agent',
      model: new ScriptedModel({ respond: () => 'the answer' }),
      middleware: [consolidate({ model: extractor, store })],
    });
    const runner = new Runner({ agent, appName: 'middleware-test', sessionStore: sessions });
    const first = await runner.run({ userId: 'tester', input: 'go', signal: controller.signal }).result();
    expect(first.status).toBe('aborted');
    expect(extractor.calls).toBe(1);
    expect(store.items.map((i) => i.text)).toEqual(['fact one']);

    const resumed = await new Runner({ agent, appName: 'middleware-test', sessionStore: sessions })
      .resume({ userId: 'tester', sessionId: first.sessionId })
      .result();
    expect(resumed.status).toBe('completed');
    expect(extractor.calls).toBe(1);
    expect(store.items.map((i) => i.text)).toEqual(['fact one', 'fact two']);
    const session = await sessions.get({ ...USER, id: first.sessionId });
    const recorded = (session?.events ?? []).filter((e: AgentEvent) => e.meta?.middleware === 'consolidate');
    expect(recorded).toHaveLength(1);
    expect(new Set(store.items.map((i) => i.source?.eventId))).toEqual(new Set([recorded[0]?.id]));
  });

  it('a model that fails or answers nonsense, a store that is down: the answer stands, the event says what failed', async () => {
    const cases: [ScriptedModel, ScriptedMemoryStore, RegExp][] = [
      [new ScriptedModel({ responses: [new Error('rate limited')] }), new ScriptedMemoryStore(), /the model failed: .*rate limited/],
      [new ScriptedModel({ responses: ['I think the user likes cats'] }), new ScriptedMemoryStore(), /not JSON/],
      [new ScriptedModel({ responses: [JSON.stringify({ facts: [1, 2] })] }), new ScriptedMemoryStore(), /not \{"facts"/],
    ];
    const down = new ScriptedMemoryStore();
    down.down = 'disk full';
    cases.push([new ScriptedModel({ responses: [facts('x')] }), down, /storing the facts failed: disk full/]);
    for (const [model, store, failed] of cases) {
      const run = await testMiddleware(consolidate({ model, store }), { model: ['the answer'] });
      expect(run.result.status).toBe('completed');
      expect(run.result.output).toBe('the answer');
      expect(String((run.recorded('consolidate').at(-1)?.meta?.memory as { failed?: string } | undefined)?.failed)).toMatch(failed);
      expect(store.items).toEqual([]);
    }
  });

  it('bad options are a ConfigurationError', () => {
    const store = new ScriptedMemoryStore();
    expect(() => consolidate({ store } as never)).toThrow(ConfigurationError);
    expect(() => consolidate({ model: new ScriptedModel({}), store, maxFacts: 0 })).toThrow(/maxFacts/);
    expect(() => consolidate({ model: new ScriptedModel({}), store, scope: 'everyone' as never })).toThrow(/scope/);
  });
});
