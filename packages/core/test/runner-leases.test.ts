import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  ConfigurationError,
  InMemorySessionStore,
  LeaseLostError,
  ReActAgent,
  Runner,
  SessionBusyError,
  tool,
  type SessionStore,
} from '@replan/core';
import type { AppendOptions, SessionLease } from '@replan/core/store-kit';
import { ScriptedModel, callTools } from '@replan/core/testing';
import { sleep } from './support.js';
import { handleOn } from './support/store-handle.js';

const key = (id: string) => ({ appName: 'x', userId: 'u', id });

/** A tool that waits until released (or its signal fires), counting its runs and aborts. */
function gate() {
  let open: () => void = () => undefined;
  const opened = new Promise<void>((resolve) => (open = resolve));
  const counts = { runs: 0, aborted: 0 };
  const started: Array<() => void> = [];
  const wait = tool({
    name: 'wait',
    description: '',
    parameters: z.object({}),
    execute: async (_args, ctx) => {
      counts.runs++;
      for (const s of started.splice(0)) s();
      await new Promise<void>((resolve, reject) => {
        void opened.then(resolve);
        ctx.signal.addEventListener('abort', () => {
          counts.aborted++;
          reject(ctx.signal.reason);
        });
      });
      return 'waited';
    },
  });
  const running = () => new Promise<void>((resolve) => started.push(resolve));
  return { wait, open: () => open(), counts, running };
}

describe('Runner leases', () => {
  it('holds a lease while it runs: a resume elsewhere is refused naming the holder, nothing written; released at the end', async () => {
    const store = new InMemorySessionStore();
    const g = gate();
    const model = new ScriptedModel({ responses: [callTools({ name: 'wait', id: 'w' }), 'done'] });
    const a = new Runner({
      agent: new ReActAgent({ name: 'a', model, tools: [g.wait] }),
      appName: 'x',
      sessionStore: handleOn(store),
      owner: 'runner-a',
    });
    const other = new Runner({
      agent: new ReActAgent({ name: 'a', model: new ScriptedModel() }),
      appName: 'x',
      sessionStore: handleOn(store),
      owner: 'runner-b',
    });
    const running = g.running();
    const run = a.run({ userId: 'u', sessionId: 's', input: 'go' });
    void run.result();
    await running;
    const before = (await store.get(key('s')))!.version;
    const refused = await other
      .resume({ userId: 'u', sessionId: 's' })
      .result()
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(SessionBusyError);
    expect((refused as SessionBusyError).owner).toBe('runner-a');
    expect((refused as SessionBusyError).expiresAt).toBeGreaterThan(Date.now());
    expect((refused as Error).message).toContain('runner-a');
    const again = await other
      .run({ userId: 'u', sessionId: 's', input: 'me too' })
      .result()
      .catch((e: unknown) => e);
    expect(again).toBeInstanceOf(SessionBusyError);
    expect((await store.get(key('s')))!.version).toBe(before);
    g.open();
    expect((await run.result()).status).toBe('completed');
    // Released: another owner takes it at once, with a higher token.
    const next = await store.acquireLease(key('s'), { owner: 'runner-b', ttlMs: 1_000 });
    expect(next.token).toBeGreaterThan(1);
  });

  it('passes its lease on every append and renews it by heartbeat while a tool runs longer than the lease', async () => {
    const store = new InMemorySessionStore();
    const appends = { options: { expectedVersion: -1 } as AppendOptions, count: 0 };
    let renewals = 0;
    const slow = tool({ name: 'slow', description: '', parameters: z.object({}), execute: async () => (await sleep(900), 'slow done') });
    const model = new ScriptedModel({ responses: [callTools({ name: 'slow', id: 's1' }), 'done'] });
    const runner = new Runner({
      agent: new ReActAgent({ name: 'a', model, tools: [slow] }),
      appName: 'x',
      sessionStore: handleOn(store, { appends, renew: (k, l, t) => (renewals++, store.renewLease(k, l, t)) }),
      owner: 'runner-a',
      leaseMs: 300,
    });
    const run = runner.run({ userId: 'u', sessionId: 's', input: 'go' });
    void run.result();
    await sleep(600); // twice the lease: only the heartbeat keeps it
    expect((await store.acquireLease(key('s'), { owner: 'thief', ttlMs: 1_000 }).catch((e: unknown) => e)) as Error).toBeInstanceOf(
      SessionBusyError,
    );
    const result = await run.result();
    expect(result.status).toBe('completed');
    expect(renewals).toBeGreaterThanOrEqual(3);
    expect(appends.count).toBeGreaterThanOrEqual(3);
    expect(appends.options.lease).toMatchObject({ owner: 'runner-a' });
  });

  it('ends failed with LeaseLostError when a renewal is refused: the tool gets the abort signal, nothing more is appended', async () => {
    const store = new InMemorySessionStore();
    const g = gate();
    const appends = { options: { expectedVersion: -1 } as AppendOptions, count: 0 };
    let refuse = false;
    const renew: SessionStore['renewLease'] = async (k, l, t) => {
      if (refuse) throw new LeaseLostError(k.id, l.token, l.token + 1, 'someone-else');
      return store.renewLease(k, l, t);
    };
    const model = new ScriptedModel({ responses: [callTools({ name: 'wait', id: 'w' }), 'done'] });
    const runner = new Runner({
      agent: new ReActAgent({ name: 'a', model, tools: [g.wait] }),
      appName: 'x',
      sessionStore: handleOn(store, { appends, renew }),
      leaseMs: 90,
    });
    const running = g.running();
    const run = runner.run({ userId: 'u', sessionId: 's', input: 'go' });
    void run.result();
    await running;
    const appendsBefore = appends.count;
    const versionBefore = (await store.get(key('s')))!.version;
    refuse = true;
    const started = Date.now();
    const result = await run.result();
    expect(result.status).toBe('failed');
    expect(result.error).toBeInstanceOf(LeaseLostError);
    expect(Date.now() - started).toBeLessThan(1_000); // promptly: within a heartbeat or two
    expect(g.counts.aborted).toBe(1);
    expect(appends.count).toBe(appendsBefore);
    expect((await store.get(key('s')))!.version).toBe(versionBefore);
    expect(model.calls).toBe(1);
  });

  it('ends failed with LeaseLostError once its lease expired unrenewed (a stalled store), without appending', async () => {
    const store = new InMemorySessionStore();
    const g = gate();
    const appends = { options: { expectedVersion: -1 } as AppendOptions, count: 0 };
    const renew: SessionStore['renewLease'] = () => new Promise<SessionLease>(() => undefined); // never answers
    const model = new ScriptedModel({ responses: [callTools({ name: 'wait', id: 'w' }), 'done'] });
    const runner = new Runner({
      agent: new ReActAgent({ name: 'a', model, tools: [g.wait] }),
      appName: 'x',
      sessionStore: handleOn(store, { appends, renew }),
      leaseMs: 90,
    });
    const running = g.running();
    const run = runner.run({ userId: 'u', sessionId: 's', input: 'go' });
    void run.result();
    await running;
    const appendsBefore = appends.count;
    const result = await run.result();
    expect(result).toMatchObject({ status: 'failed' });
    expect(result.error).toBeInstanceOf(LeaseLostError);
    expect(g.counts.aborted).toBe(1);
    expect(appends.count).toBe(appendsBefore);
  });

  it('a zombie whose lease was taken over cannot append: the takeover resumes without re-running finished tools', async () => {
    const store = new InMemorySessionStore();
    let fastRuns = 0;
    let slowRuns = 0;
    let releaseZombie: () => void = () => undefined;
    const zombieMayFinish = new Promise<void>((resolve) => (releaseZombie = resolve));
    const fast = tool({ name: 'fast', description: '', parameters: z.object({}), execute: () => (fastRuns++, 'fast done') });
    const slow = tool({
      name: 'slow',
      description: '',
      parameters: z.object({}),
      // The first run ignores its signal, like a process paused mid-call, then tries to store its result.
      execute: async () => (++slowRuns === 1 ? await zombieMayFinish : undefined, 'slow done'),
    });
    const script = () => new ScriptedModel({ responses: [callTools({ name: 'fast', id: 'f' }, { name: 'slow', id: 'sl' }), 'all done'] });
    // The zombie's heartbeat "succeeds" without reaching the store, so the store lets its lease expire.
    const fakeRenew: SessionStore['renewLease'] = async (_k, l, t) => ({ ...l, expiresAt: Date.now() + t });
    const zombieModel = script();
    const zombie = new Runner({
      agent: new ReActAgent({ name: 'a', model: zombieModel, tools: [fast, slow] }),
      appName: 'x',
      sessionStore: handleOn(store, { renew: fakeRenew }),
      owner: 'zombie',
      leaseMs: 300, // long enough that a loaded machine delays no renewal past it (the zombie checks its lease by its own clock)
    });
    const zombieRun = zombie.run({ userId: 'u', sessionId: 's', input: 'go' });
    void zombieRun.result();
    while (fastRuns === 0 || slowRuns === 0) await sleep(5);
    await sleep(450); // its lease has expired in the store
    const takerModel = new ScriptedModel({ responses: ['all done'] });
    const taker = new Runner({
      agent: new ReActAgent({ name: 'a', model: takerModel, tools: [fast, slow] }),
      appName: 'x',
      sessionStore: handleOn(store),
      owner: 'taker',
    });
    const taken = await taker.resume({ userId: 'u', sessionId: 's' }).result();
    expect(taken).toMatchObject({ status: 'completed', output: 'all done' });
    expect(fastRuns).toBe(1); // stored before the takeover: not run again
    expect(slowRuns).toBe(2); // in flight at the takeover: run again (at-least-once)
    expect(takerModel.calls).toBe(1);
    const settled = (await store.get(key('s')))!;
    releaseZombie();
    const zombieResult = await zombieRun.result();
    expect(zombieResult.status).toBe('failed');
    expect(zombieResult.error).toBeInstanceOf(LeaseLostError);
    expect((zombieResult.error as LeaseLostError).currentToken).toBeGreaterThan((zombieResult.error as LeaseLostError).token);
    const after = (await store.get(key('s')))!;
    expect(after.version).toBe(settled.version);
    expect(after.events.filter((e) => e.message?.role === 'tool').length).toBe(2);
    expect(zombieModel.calls).toBe(1);
  });

  it('releases its lease when the run fails, is aborted or is interrupted', async () => {
    const store = new InMemorySessionStore();
    const boom = tool({
      name: 'boom',
      description: '',
      parameters: z.object({}),
      execute: () => {
        throw new Error('boom');
      },
    });
    const ask = tool({ name: 'ask', description: '', parameters: z.object({}), execute: (_a, ctx) => ctx.interrupt<string>({ q: 1 }) });
    const free = async (id: string) => (await store.acquireLease(key(id), { owner: 'after', ttlMs: 1_000 })).owner;

    const failing = new Runner({
      agent: new ReActAgent({
        name: 'a',
        model: new ScriptedModel({
          respond: () => {
            throw new Error('model down');
          },
        }),
      }),
      appName: 'x',
      sessionStore: handleOn(store),
    });
    expect((await failing.run({ userId: 'u', sessionId: 'f', input: 'go' }).result()).status).toBe('failed');
    expect(await free('f')).toBe('after');

    const controller = new AbortController();
    const aborting = new Runner({
      agent: new ReActAgent({ name: 'a', model: new ScriptedModel({ responses: ['late'], latencyMs: 5_000 }) }),
      appName: 'x',
      sessionStore: handleOn(store),
    });
    setTimeout(() => controller.abort(), 30);
    expect((await aborting.run({ userId: 'u', sessionId: 'a', input: 'go', signal: controller.signal }).result()).status).toBe('aborted');
    expect(await free('a')).toBe('after');

    const asking = new Runner({
      agent: new ReActAgent({
        name: 'a',
        model: new ScriptedModel({ responses: [callTools({ name: 'ask', id: 'q' })] }),
        tools: [ask, boom],
      }),
      appName: 'x',
      sessionStore: handleOn(store),
    });
    expect((await asking.run({ userId: 'u', sessionId: 'i', input: 'go' }).result()).status).toBe('interrupted');
    expect(await free('i')).toBe('after');
  });

  it("keeps today's behaviour on a store without lease methods: versions and the in-process claim", async () => {
    const inner = new InMemorySessionStore();
    const seen: AppendOptions[] = [];
    const plain: SessionStore = {
      create: (s, e) => inner.create(s, e),
      get: (k) => inner.get(k),
      list: (i) => inner.list(i),
      delete: (k) => inner.delete(k),
      appendEvents: (k, e, o) => (seen.push(o), inner.appendEvents(k, e, o)),
    };
    const g = gate();
    const model = new ScriptedModel({ responses: [callTools({ name: 'wait', id: 'w' }), 'done'] });
    const runner = new Runner({
      agent: new ReActAgent({ name: 'a', model, tools: [g.wait] }),
      appName: 'x',
      sessionStore: plain,
      leaseMs: 50,
    });
    const running = g.running();
    const run = runner.run({ userId: 'u', sessionId: 's', input: 'go' });
    void run.result();
    await running;
    await sleep(120); // no heartbeat, no expiry: nothing happens to the run
    expect(
      await runner
        .resume({ userId: 'u', sessionId: 's' })
        .result()
        .catch((e: unknown) => e),
    ).toBeInstanceOf(SessionBusyError);
    g.open();
    expect((await run.result()).status).toBe('completed');
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.every((o) => o.lease === undefined)).toBe(true);
    // Nobody leased it on the inner store either.
    expect((await inner.acquireLease(key('s'), { owner: 'o', ttlMs: 100 })).token).toBe(1);
  });

  it('refuses bad leaseMs and owner options at construction (ConfigurationError)', () => {
    const agent = new ReActAgent({ name: 'a', model: new ScriptedModel() });
    for (const leaseMs of [0, -1, 1.5, Number.NaN, 86_400_001])
      expect(() => new Runner({ agent, appName: 'x', leaseMs })).toThrow(ConfigurationError);
    for (const owner of ['', 'a\nb']) expect(() => new Runner({ agent, appName: 'x', owner })).toThrow(ConfigurationError);
    expect(new Runner({ agent, appName: 'x' }).owner).toMatch(/^.+:\d+:[0-9a-f]{8}$/);
    expect(new Runner({ agent, appName: 'x' }).leaseMs).toBe(30_000);
  });
});
