import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  InMemorySessionStore,
  LeaseLostError,
  ReActAgent,
  Runner,
  SessionBusyError,
  agentTool,
  tool,
  type SessionKey,
  type SessionStore,
} from '@replan/core';
import { childSessionId } from '@replan/core/agent-kit';
import { ScriptedModel, callTools } from '@replan/core/testing';
import { sleep } from './support.js';
import { publishCall, researchCall, world } from './support/agent-tool-world.js';
import { handleOn } from './support/store-handle.js';

const key = (id: string): SessionKey => ({ appName: 'x', userId: 'u', id });

/** A promise with its resolve function outside. */
function deferred() {
  let resolve: () => void = () => undefined;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

/**
 * root ─ research (agentTool) ─ researcher ─ slow: the n-th run of `slow` (counted across runners)
 * waits for `gates[n]`, ignoring its abort signal like a process paused in the middle of the call.
 */
function tree(
  store: SessionStore,
  owner: string,
  models: { outer: ScriptedModel; inner: ScriptedModel },
  shared: ReturnType<typeof slowTool>,
  leaseMs?: number,
) {
  const researcher = new ReActAgent({ name: 'researcher', model: models.inner, tools: [shared.slow] });
  const root = new ReActAgent({ name: 'root', model: models.outer, tools: [agentTool(researcher, { name: 'research' })] });
  return new Runner({ agent: root, appName: 'x', sessionStore: store, owner, ...(leaseMs ? { leaseMs } : {}) });
}

function slowTool() {
  const gates = [deferred(), deferred()];
  const state = { runs: 0 };
  const slow = tool({
    name: 'slow',
    description: '',
    parameters: z.object({}),
    execute: async () => {
      const run = state.runs++;
      await gates[run]?.promise;
      return `slow ${run}`;
    },
  });
  return { slow, gates, state };
}

const slowCall = () => callTools({ name: 'slow', id: 's1' });

async function childKeyOf(store: InMemorySessionStore, sessionId: string): Promise<SessionKey> {
  const root = await store.get(key(sessionId));
  return key(childSessionId(sessionId, root!.events[0]!.invocationId, 'o1'));
}

/**
 * A zombie: a run whose heartbeat "succeeds" without reaching the store (so the store lets its
 * leases, root and child, expire), stuck in the child's first `slow` call until `gates[0]`.
 * Resolves once both its leases have expired in the store.
 */
async function startZombie(store: InMemorySessionStore, shared: ReturnType<typeof slowTool>) {
  const fakeRenew: SessionStore['renewLease'] = async (_k, l, t) => ({ ...l, expiresAt: Date.now() + t });
  const inner = new ScriptedModel({ responses: [slowCall(), 'inner done'] });
  const outer = new ScriptedModel({ responses: [researchCall(), 'outer done'] });
  const zombie = tree(handleOn(store, { renew: fakeRenew }), 'zombie', { outer, inner }, shared, 60);
  const run = zombie.run({ userId: 'u', sessionId: 's', input: 'go' });
  void run.result();
  while (shared.state.runs < 1) await sleep(5);
  await sleep(150); // both leases have expired in the store
  return { run, inner, childKey: await childKeyOf(store, 's') };
}

describe('agentTool: child sessions take a lease of their own', () => {
  it('while the child runs its lease is held by the parent run’s owner: another owner is refused; released at the end', async () => {
    const store = new InMemorySessionStore();
    const shared = slowTool();
    const runner = tree(
      handleOn(store),
      'runner-a',
      {
        outer: new ScriptedModel({ responses: [researchCall(), 'outer done'] }),
        inner: new ScriptedModel({ responses: [slowCall(), 'inner done'] }),
      },
      shared,
    );
    const run = runner.run({ userId: 'u', sessionId: 's', input: 'go' });
    void run.result();
    while (shared.state.runs < 1) await sleep(5);
    const childKey = await childKeyOf(store, 's');
    expect(await store.leaseHolder(childKey)).toMatchObject({ owner: 'runner-a' });
    const before = (await store.get(childKey))!.version;
    const refused = await store.acquireLease(childKey, { owner: 'thief', ttlMs: 1_000 }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(SessionBusyError);
    expect((refused as SessionBusyError).owner).toBe('runner-a');
    shared.gates[0]!.resolve();
    expect(await run.result()).toMatchObject({ status: 'completed', output: 'outer done' });
    expect((await store.get(childKey))!.version).toBeGreaterThan(before);
    expect(await store.leaseHolder(childKey)).toBeUndefined();
  });

  it('a zombie parent whose leases were taken over cannot write to its child: the takeover finishes the child', async () => {
    const store = new InMemorySessionStore();
    const shared = slowTool();
    const { run: zombieRun, inner: zombieInner, childKey } = await startZombie(store, shared);

    // Another runner resumes the tree from the root: it takes over the root's lease, then the child's, and runs the
    // tool that was in flight again; it has not stored anything in the child yet.
    const takerInner = new ScriptedModel({ responses: ['inner done'] });
    const taker = tree(handleOn(store), 'taker', { outer: new ScriptedModel({ responses: ['outer done'] }), inner: takerInner }, shared);
    const takerRun = taker.resume({ userId: 'u', sessionId: 's' });
    void takerRun.result();
    while (shared.state.runs < 2) await sleep(5);
    expect(await store.leaseHolder(childKey)).toMatchObject({ owner: 'taker' });
    const before = (await store.get(childKey))!;

    // The zombie's tool call ends: its result is refused by the child's lease, and the zombie's run stops.
    shared.gates[0]!.resolve();
    const zombieResult = await zombieRun.result();
    expect(zombieResult.status).toBe('failed');
    expect(zombieResult.error).toBeInstanceOf(LeaseLostError);
    expect(await store.get(childKey)).toEqual(before);
    expect(zombieInner.calls).toBe(1);

    // The taker stores its own result and finishes both sessions, undisturbed.
    shared.gates[1]!.resolve();
    expect(await takerRun.result()).toMatchObject({ status: 'completed', output: 'outer done' });
    const child = (await store.get(childKey))!;
    const results = child.events.flatMap((e) => (e.message?.role === 'tool' ? e.message.content : []));
    expect(results).toEqual([expect.objectContaining({ type: 'tool_result', toolCallId: 's1', output: 'slow 1' })]);
    expect(takerInner.calls).toBe(1);
  });

  it('from the moment the run that took the root over holds the child’s lease, the zombie’s writes to the child are refused', async () => {
    const store = new InMemorySessionStore();
    const shared = slowTool();
    const { run: zombieRun, childKey } = await startZombie(store, shared);
    // The taker's read of the child is held back after it was made: the zombie writes in between.
    const takerStore = handleOn(store);
    const held = deferred();
    const reading = deferred();
    takerStore.get = async (k) => {
      const session = await store.get(k);
      if (k.id === childKey.id) {
        reading.resolve();
        await held.promise;
      }
      return session;
    };
    shared.gates[1]!.resolve(); // the taker's run of the tool ends at once
    const taker = tree(
      takerStore,
      'taker',
      { outer: new ScriptedModel({ responses: ['outer done'] }), inner: new ScriptedModel({ responses: ['inner done'] }) },
      shared,
    );
    const takerRun = taker.resume({ userId: 'u', sessionId: 's' });
    void takerRun.result();
    await reading.promise;
    const before = await store.get(childKey);
    shared.gates[0]!.resolve();
    const zombieResult = await zombieRun.result();
    expect(zombieResult.error).toBeInstanceOf(LeaseLostError);
    expect(await store.get(childKey)).toEqual(before);
    held.resolve();
    expect(await takerRun.result()).toMatchObject({ status: 'completed', output: 'outer done' });
    const child = (await store.get(childKey))!;
    const results = child.events.flatMap((e) => (e.message?.role === 'tool' ? e.message.content : []));
    expect(results).toEqual([expect.objectContaining({ toolCallId: 's1', output: 'slow 1' })]);
    expect(child.events.at(-1)?.actions?.invocationEnd).toMatchObject({ status: 'completed' });
  });

  it('a parent that lost its lease stops its child: nothing more is stored in the child', async () => {
    const store = new InMemorySessionStore();
    const shared = slowTool();
    let refuse = false;
    const renew: SessionStore['renewLease'] = async (k, l, t) => {
      if (refuse && k.id === 's') throw new LeaseLostError(k.id, l.token, l.token + 1, 'someone-else');
      return store.renewLease(k, l, t);
    };
    const inner = new ScriptedModel({ responses: [slowCall(), 'inner done'] });
    const runner = tree(
      handleOn(store, { renew }),
      'runner-a',
      { outer: new ScriptedModel({ responses: [researchCall(), 'outer done'] }), inner },
      shared,
      90,
    );
    const run = runner.run({ userId: 'u', sessionId: 's', input: 'go' });
    void run.result();
    while (shared.state.runs < 1) await sleep(5);
    const childKey = await childKeyOf(store, 's');
    const before = await store.get(childKey);
    refuse = true;
    const result = await run.result();
    expect(result.status).toBe('failed');
    expect(result.error).toBeInstanceOf(LeaseLostError);
    shared.gates[0]!.resolve(); // the tool that ignored its signal ends now: its result is not stored
    await sleep(20);
    expect(await store.get(childKey)).toEqual(before);
    expect(inner.calls).toBe(1);
  });

  it('a child lease left by a crashed run is waited out: the answer then runs the inner tool once and both runs complete', async () => {
    const outer = new ScriptedModel({ responses: [researchCall(), 'outer final'] });
    const inner = new ScriptedModel({ responses: [publishCall(), 'inner published'] });
    const store = new InMemorySessionStore();
    const { ran, runner } = world({ outer, inner }, store);
    const first = await runner.run({ userId: 'u', sessionId: 's', input: 'go' }).result();
    const childKey: SessionKey = { appName: 'nest', userId: 'u', id: childSessionId('s', first.invocationId, 'o1') };
    // A run that took the child's lease and died: nobody renews or releases it; it expires in 150 ms.
    await store.acquireLease(childKey, { owner: 'crashed', ttlMs: 150 });
    const done = await runner.resume({ userId: 'u', sessionId: 's', values: { 'o1/a1:approval': true } }).result();
    expect(done).toMatchObject({ status: 'completed', output: 'outer final' });
    expect([ran.publish, outer.calls, inner.calls]).toEqual([['Tides'], 2, 2]);
  });

  it('a child lease that stays held stops the parent run resumable (SessionBusyError naming the holder), storing no result', async () => {
    const outer = new ScriptedModel({ responses: [researchCall(), 'outer final'] });
    const inner = new ScriptedModel({ responses: [publishCall(), 'inner published'] });
    const store = new InMemorySessionStore();
    const { ran, runner } = world({ outer, inner }, handleOn(store));
    const first = await runner.run({ userId: 'u', sessionId: 's', input: 'go' }).result();
    const childKey: SessionKey = { appName: 'nest', userId: 'u', id: childSessionId('s', first.invocationId, 'o1') };
    const held = await store.acquireLease(childKey, { owner: 'elsewhere', ttlMs: 60_000 });
    // Its leases last 300 ms (a heartbeat late on a busy machine must not lose them): the held child lease is waited out for 600 ms.
    const short = new Runner({ agent: runner.agent, appName: 'nest', sessionStore: handleOn(store), leaseMs: 300 });
    const stopped = await short.resume({ userId: 'u', sessionId: 's', values: { 'o1/a1:approval': true } }).result();
    expect(stopped.status).toBe('failed');
    expect(stopped.error).toBeInstanceOf(SessionBusyError);
    expect((stopped.error as SessionBusyError).owner).toBe('elsewhere');
    const parent = await store.get({ appName: 'nest', userId: 'u', id: 's' });
    expect(parent!.events.some((e) => e.message?.role === 'tool')).toBe(false); // the call has no (error) result
    expect([ran.publish, outer.calls, inner.calls]).toEqual([[], 1, 1]);
    await store.releaseLease(childKey, held);
    const done = await short.resume({ userId: 'u', sessionId: 's' }).result();
    expect(done).toMatchObject({ status: 'completed', output: 'outer final' });
    expect([ran.publish, outer.calls, inner.calls]).toEqual([['Tides'], 2, 2]);
  });
});
