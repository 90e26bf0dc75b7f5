// The code of docs/testing.md: each snippet there is copied from this file (doc-snippets.test.ts
// checks they stay the same), so the guide's examples run on every `pnpm test`.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  type AgentEvent,
  eventKind,
  InMemorySessionStore,
  ReActAgent,
  Runner,
  type SessionKey,
  type SessionStore,
  tool,
} from '@replan/core';
import type { AppendOptions, CreateSessionInput, ListSessionsInput } from '@replan/core/store-kit';
import { callTools, reply, ScriptedModel, runSessionStoreContract } from '@replan/core/testing';

const lookup = tool({
  name: 'lookup',
  description: 'Looks a word up',
  parameters: z.object({ word: z.string() }),
  execute: ({ word }) => `definition of ${word}`,
});

describe('testing guide: ScriptedModel', () => {
  it('plays scripted turns: a tool call, then the answer', async () => {
    const model = new ScriptedModel({
      responses: [
        callTools({ name: 'lookup', args: { word: 'apple' } }), // 1st call: the model calls the tool
        reply('An apple is a fruit.'), // 2nd call: it answers
      ],
    });
    const agent = new ReActAgent({ name: 'helper', model, tools: [lookup] });
    const runner = new Runner({ agent, appName: 'test' });

    const result = await runner.run({ userId: 'u', input: 'What is an apple?' }).result();

    expect(result).toMatchObject({ status: 'completed', output: 'An apple is a fruit.' });
    expect(model.calls).toBe(2);
    // Every request is recorded: the second one carries the tool's result back to the model.
    expect(model.requests[1]?.messages.at(-1)).toMatchObject({
      role: 'tool',
      content: [{ type: 'tool_result', name: 'lookup', output: 'definition of apple' }],
    });
  });

  it('answers from the request with respond', async () => {
    const model = new ScriptedModel({
      respond: (request, call) => {
        const last = request.messages.at(-1);
        if (last?.role === 'tool') return `done after ${call + 1} calls`;
        return callTools({ name: 'lookup', args: { word: 'pear' } });
      },
    });
    const agent = new ReActAgent({ name: 'helper', model, tools: [lookup] });

    const result = await new Runner({ agent, appName: 'test' }).run({ userId: 'u', input: 'pear?' }).result();

    expect(result.output).toBe('done after 2 calls');
  });

  it('fails a call with an Error, and the run resumes where it stopped', async () => {
    const model = new ScriptedModel({ responses: [new Error('rate limited'), 'Recovered.'] });
    const runner = new Runner({ agent: new ReActAgent({ name: 'helper', model }), appName: 'test' });

    const failed = await runner.run({ userId: 'u', sessionId: 's1', input: 'hi' }).result();
    expect(failed.status).toBe('failed');
    expect(failed.error?.message).toMatch(/rate limited/);

    const resumed = await runner.resume({ userId: 'u', sessionId: 's1' }).result();
    expect(resumed).toMatchObject({ status: 'completed', output: 'Recovered.' });
  });

  it('waits latencyMs before answering, and an abort cuts the wait short', async () => {
    const model = new ScriptedModel({ responses: ['too late'], latencyMs: 60_000 });
    const runner = new Runner({ agent: new ReActAgent({ name: 'helper', model }), appName: 'test' });
    const controller = new AbortController();

    const run = runner.run({ userId: 'u', input: 'hi', signal: controller.signal });
    setTimeout(() => controller.abort(), 20);

    expect((await run.result()).status).toBe('aborted');
  });

  it('streams text in chunks when the run streams', async () => {
    const model = new ScriptedModel({ responses: ['Streamed answers arrive in pieces.'], chunkSize: 10 });
    const runner = new Runner({ agent: new ReActAgent({ name: 'helper', model }), appName: 'test' });

    const run = runner.run({ userId: 'u', input: 'hi', stream: true });
    const deltas: string[] = [];
    for await (const event of run) {
      const kind = eventKind(event);
      if (kind.kind === 'text-delta') deltas.push(kind.text);
    }

    expect(deltas).toEqual(['Streamed a', 'nswers arr', 'ive in pie', 'ces.']);
    expect((await run.result()).output).toBe('Streamed answers arrive in pieces.');
  });

  it('reports the usage you script', async () => {
    const model = new ScriptedModel({ responses: ['ok'], usage: { inputTokens: 120, outputTokens: 30 } });
    const runner = new Runner({ agent: new ReActAgent({ name: 'helper', model }), appName: 'test' });

    const result = await runner.run({ userId: 'u', input: 'hi' }).result();

    expect(result.usage).toEqual({ inputTokens: 120, outputTokens: 30 });
  });
});

/** A store of your own: here one that counts appends and keeps the events in memory. */
class CountingStore implements SessionStore {
  appends = 0;
  private readonly inner = new InMemorySessionStore();

  create(session: CreateSessionInput, events?: readonly AgentEvent[]) {
    return this.inner.create(session, events);
  }
  get(key: SessionKey) {
    return this.inner.get(key);
  }
  list(input: ListSessionsInput) {
    return this.inner.list(input);
  }
  delete(key: SessionKey) {
    return this.inner.delete(key);
  }
  appendEvents(key: SessionKey, events: readonly AgentEvent[], options: AppendOptions) {
    this.appends++;
    return this.inner.appendEvents(key, events, options);
  }
}

describe('testing guide: your own store', () => {
  it('is what the runner writes through', async () => {
    const store = new CountingStore();
    const model = new ScriptedModel({ responses: ['ok'] });
    const runner = new Runner({ agent: new ReActAgent({ name: 'helper', model }), appName: 'test', sessionStore: store });

    await runner.run({ userId: 'u', input: 'hi' }).result();

    expect(store.appends).toBeGreaterThan(0);
  });
});

runSessionStoreContract({
  name: 'CountingStore',
  createStore: () => new CountingStore(),
  disposeStore: (store) => store.close?.(),
  test: { describe, it, expect },
});
