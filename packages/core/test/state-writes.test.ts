import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  InMemorySessionStore,
  InvalidArgumentError,
  MAX_ID_LENGTH,
  ReActAgent,
  Runner,
  StateValueError,
  tool,
  toolResultsOf,
  type ReActAgentOptions,
  hooks,
} from '@replan/core';
import { ScriptedModel, callTools } from '@replan/core/testing';

const key = (id: string, userId = 'u') => ({ appName: 'app', userId, id });

function setup(model: ScriptedModel, extra: Partial<ReActAgentOptions> = {}) {
  const store = new InMemorySessionStore();
  const runner = new Runner({ agent: new ReActAgent({ name: 'a', model, ...extra }), appName: 'app', sessionStore: store });
  return { store, runner };
}

describe('state writes are checked where they are set', () => {
  it('throws StateValueError synchronously to the tool; uncaught, the model sees an error result and nothing is stored', async () => {
    let caughtInTool: unknown;
    const remember = tool({
      name: 'remember',
      description: 'stores a value',
      parameters: z.object({ rethrow: z.boolean() }),
      execute: ({ rethrow }, ctx) => {
        try {
          ctx.state.set('when', new Date(0));
        } catch (error) {
          caughtInTool = error;
          if (rethrow) throw error;
        }
        return 'ok';
      },
    });
    const model = new ScriptedModel({
      responses: [callTools({ name: 'remember', args: { rethrow: false } }, { name: 'remember', args: { rethrow: true } }), 'done'],
    });
    const { store, runner } = setup(model, { tools: [remember] });
    const result = await runner.run({ userId: 'u', sessionId: 's', input: 'go' }).result();
    expect(result.status).toBe('completed');
    expect(caughtInTool).toBeInstanceOf(StateValueError);
    const results = (model.requests[1]?.messages ?? []).flatMap((m) => toolResultsOf(m));
    expect(results.map((r) => r.isError ?? false).sort()).toEqual([false, true]);
    expect(JSON.stringify(results)).toMatch(/when is a Date/);
    expect((await store.get(key('s')))?.state.when).toBeUndefined();
  });

  it('fails the run when a hook sets a value that is not JSON', async () => {
    const model = new ScriptedModel({ responses: ['hi'] });
    const { store, runner } = setup(model, {
      middleware: [hooks({ beforeModel: (ctx) => void ctx.state.set('user:seen', new Set([1])) })],
    });
    const result = await runner.run({ userId: 'u', sessionId: 's', input: 'go' }).result();
    expect(result.status).toBe('failed');
    expect(result.error).toBeInstanceOf(StateValueError);
    expect(model.requests.length).toBe(0);
    expect((await store.get(key('s')))?.state['user:seen']).toBeUndefined();
  });

  it('fails the run when outputKey would store a structured answer that is not JSON', async () => {
    const schema = z.object({ when: z.string().transform((s) => new Date(s)) });
    const model = new ScriptedModel({ responses: ['{"when":"2026-01-01T00:00:00Z"}'] });
    const { store, runner } = setup(model, { outputSchema: schema, outputKey: 'answer' });
    const result = await runner.run({ userId: 'u', sessionId: 's', input: 'when?' }).result();
    expect(result.status).toBe('failed');
    expect(result.error).toBeInstanceOf(StateValueError);
    expect((result.error as StateValueError).path).toBe('answer.when');
    expect((await store.get(key('s')))?.state.answer).toBeUndefined();
  });

  it("drops a throwing tool's writes but keeps those of beforeTool and of an onError hook that recovers", async () => {
    let hookSaw: unknown = 'not called';
    const flaky = tool({
      name: 'flaky',
      description: 'writes, then fails',
      parameters: z.object({}),
      execute: (_args, ctx) => {
        ctx.state.set('user:credits', 5);
        throw new Error('boom');
      },
    });
    const model = new ScriptedModel({ responses: [callTools({ name: 'flaky' }), 'done'] });
    const { store, runner } = setup(model, {
      tools: [flaky],
      middleware: [
        hooks({
          beforeTool: (ctx) => void ctx.state.set('before', true),
          onError: (ctx) => {
            hookSaw = ctx.state.get('user:credits');
            ctx.state.set('recovered', true);
            return 'fallback result';
          },
        }),
      ],
    });
    expect((await runner.run({ userId: 'u', sessionId: 's', input: 'go' }).result()).status).toBe('completed');
    const state = (await store.get(key('s')))?.state;
    expect(hookSaw).toBeUndefined();
    expect(state?.['user:credits']).toBeUndefined();
    expect(state).toMatchObject({ before: true, recovered: true });
    expect(JSON.stringify(model.requests[1]?.messages.at(-1))).toContain('fallback result');
  });
});

describe('the runner checks ids and initial state before storing anything', () => {
  it('refuses a bad appName when it is built', () => {
    const agent = new ReActAgent({ name: 'a', model: new ScriptedModel() });
    expect(() => new Runner({ agent, appName: 'app\u0000' })).toThrow(InvalidArgumentError);
    expect(() => new Runner({ agent, appName: 'x'.repeat(MAX_ID_LENGTH + 1) })).toThrow(/Invalid appName/);
  });

  it.each([
    ['userId', { userId: 'v\uD800', sessionId: 's' }],
    ['session id', { userId: 'u', sessionId: 'a\nb' }],
    ['session id', { userId: 'u', sessionId: '' }],
  ])('rejects run() and resume() with a bad %s (InvalidArgumentError), storing nothing', async (field, ids) => {
    const model = new ScriptedModel({ responses: ['hi'] });
    const { store, runner } = setup(model);
    const run = runner.run({ ...ids, input: 'hi' });
    const events: unknown[] = [];
    await expect(
      (async () => {
        for await (const e of run) events.push(e);
      })(),
    ).rejects.toThrow(`Invalid ${field}`);
    await expect(run.result()).rejects.toBeInstanceOf(InvalidArgumentError);
    await expect(runner.resume(ids).result()).rejects.toThrow(`Invalid ${field}`);
    expect(events).toEqual([]);
    expect(model.requests.length).toBe(0);
    expect((await store.list({ appName: 'app', userId: 'u' })).sessions).toEqual([]);
  });

  it('rejects a generated session id that breaks the rules', async () => {
    const agent = new ReActAgent({ name: 'a', model: new ScriptedModel({ responses: ['hi'] }) });
    const runner = new Runner({ agent, appName: 'app', generateId: () => 'bad\u0000id' });
    await expect(runner.run({ userId: 'u', input: 'hi' }).result()).rejects.toThrow(/Invalid session id "bad\\u0000id"/);
  });

  it('rejects an initial state that is not JSON (StateValueError) and creates no session', async () => {
    const { store, runner } = setup(new ScriptedModel({ responses: ['hi'] }));
    const error = await runner
      .run({ userId: 'u', sessionId: 's', input: 'hi', state: { 'user:n': 1n } })
      .result()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StateValueError);
    expect(await store.get(key('s'))).toBeUndefined();
    await runner.run({ userId: 'u', sessionId: 's', input: 'hi', state: { 'user:n': -0 } }).result();
    expect(Object.is((await store.get(key('s')))?.state['user:n'], 0)).toBe(true);
  });
});
