import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { InMemorySessionStore, ReActAgent, Runner, SessionNotFoundError, tool, type AgentEvent, type SessionKey } from '@replan/core';
import type { AppendOptions } from '@replan/core/store-kit';
import { callTools, ScriptedModel } from '@replan/core/testing';
import { sleep } from './support.js';

/** An in-memory store that tells when an invocation's end was stored (so a test need not read the run). */
class WatchedStore extends InMemorySessionStore {
  private ended: (() => void) | undefined;
  readonly invocationEnded = new Promise<void>((resolve) => (this.ended = resolve));
  override async appendEvents(key: SessionKey, events: readonly AgentEvent[], options: AppendOptions) {
    const out = await super.appendEvents(key, events, options);
    if (events.some((e) => e.actions?.invocationEnd)) this.ended?.();
    return out;
  }
}

function setup(responses = [callTools({ name: 'lookup', id: 'c1', args: { q: 'x' } }), 'the answer']) {
  const store = new WatchedStore();
  const model = new ScriptedModel({ responses });
  const lookup = tool({
    name: 'lookup',
    description: 'looks up',
    parameters: z.object({ q: z.string() }),
    execute: async ({ q }) => `found ${q}`,
  });
  const runner = new Runner({ agent: new ReActAgent({ name: 'a', model, tools: [lookup] }), appName: 'app', sessionStore: store });
  return { store, model, runner };
}

const ids = (events: readonly AgentEvent[]) => events.map((e) => e.id);
const stored = async (store: InMemorySessionStore, id: string) => (await store.get({ appName: 'app', userId: 'u', id }))?.events ?? [];

describe('Run lifecycle', () => {
  const rejections: unknown[] = [];
  const onRejection = (reason: unknown) => rejections.push(reason);
  afterEach(() => {
    process.off('unhandledRejection', onRejection);
    rejections.length = 0;
  });

  it('a run nobody reads still runs to the end and stores its events', async () => {
    const { store, model, runner } = setup();
    runner.run({ userId: 'u', sessionId: 's', input: 'question' }); // neither iterated nor awaited
    await store.invocationEnded;
    const events = await stored(store, 's');
    expect(model.calls).toBe(2);
    expect(events.at(-1)?.actions?.invocationEnd).toEqual({ status: 'completed', output: 'the answer' });
    expect(events.some((e) => e.message?.content.some((b) => b.type === 'tool_result' && b.output === 'found x'))).toBe(true);
  });

  it('result() alone works, and iterating afterwards replays every event of the invocation', async () => {
    const { store, runner } = setup();
    const run = runner.run({ userId: 'u', sessionId: 's', input: 'question' });
    const result = await run.result();
    expect(result.status).toBe('completed');
    const replayed: AgentEvent[] = [];
    for await (const event of run) replayed.push(event);
    expect(ids(replayed)).toEqual(ids(await stored(store, 's')));
    expect(replayed[0]?.author).toBe('user');
    expect(replayed.at(-1)?.actions?.invocationEnd?.status).toBe('completed');
  });

  it('every iterator gets the same events from the first, whether it starts before, during or after the run', async () => {
    const { runner } = setup();
    const run = runner.run({ userId: 'u', sessionId: 's', input: 'question' });
    const drain = async () => {
      const out: AgentEvent[] = [];
      for await (const event of run) out.push(event);
      return out;
    };
    const [first, second] = await Promise.all([drain(), drain()]); // two at once, live
    const third = await drain(); // after the end
    expect(first.length).toBeGreaterThan(3);
    expect(ids(second)).toEqual(ids(first));
    expect(ids(third)).toEqual(ids(first));
  });

  it('break in for await stops listening only: the run goes on and stores', async () => {
    const { store, model, runner } = setup();
    const run = runner.run({ userId: 'u', sessionId: 's', input: 'question' });
    let seen = 0;
    for await (const _ of run) {
      seen++;
      break;
    }
    expect(seen).toBe(1);
    const result = await run.result();
    expect(result.status).toBe('completed');
    expect(result.output).toBe('the answer');
    expect(model.calls).toBe(2);
    expect((await stored(store, 's')).at(-1)?.actions?.invocationEnd?.status).toBe('completed');
  });

  it('run.abort() cancels promptly, ends aborted, and leaves a session that resumes', async () => {
    const store = new InMemorySessionStore();
    let toolStarted!: () => void;
    const started = new Promise<void>((resolve) => (toolStarted = resolve));
    let runs = 0;
    const wait = tool({
      name: 'wait',
      description: 'waits',
      parameters: z.object({}),
      execute: async () => {
        runs++;
        if (runs === 1) {
          toolStarted();
          await sleep(10_000); // ignores the signal: the abort must not wait for it
        }
        return 'waited';
      },
    });
    const model = new ScriptedModel({ responses: [callTools({ name: 'wait', id: 'w' }), 'done after wait'] });
    const runner = new Runner({ agent: new ReActAgent({ name: 'a', model, tools: [wait] }), appName: 'app', sessionStore: store });
    const run = runner.run({ userId: 'u', sessionId: 's', input: 'go' });
    await started;
    const before = Date.now();
    run.abort('user pressed stop');
    const aborted = await run.result();
    expect(aborted.status).toBe('aborted');
    expect(aborted.error?.name).toBe('RunAbortedError');
    expect(Date.now() - before).toBeLessThan(2_000);

    const resumed = await runner.resume({ userId: 'u', sessionId: 's' }).result();
    expect(resumed.status).toBe('completed');
    expect(resumed.output).toBe('done after wait');
    expect(runs).toBe(2);
  });

  it('abort() before the run gets going ends it aborted without calling the model', async () => {
    const { model, runner } = setup();
    const run = runner.run({ userId: 'u', sessionId: 's', input: 'go' });
    run.abort();
    expect((await run.result()).status).toBe('aborted');
    expect(model.calls).toBe(0);
  });

  it('a run that cannot start and is never read causes no unhandled rejection; result() and iteration report its error', async () => {
    process.on('unhandledRejection', onRejection);
    const { runner } = setup();
    const run = runner.resume({ userId: 'u', sessionId: 'missing' });
    await sleep(20); // several turns of the event loop: an unhandled rejection would be reported by now
    expect(rejections).toEqual([]);
    await expect(run.result()).rejects.toBeInstanceOf(SessionNotFoundError);
    const iterate = async () => {
      for await (const _ of run) void _;
    };
    await expect(iterate()).rejects.toBeInstanceOf(SessionNotFoundError);
  });
});
