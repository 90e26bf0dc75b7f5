import type { SessionStore } from '../sessions/session-store.js';
import { contractEvent } from './contract/contract-event.js';
import type { ContractTestApi } from './contract/contract-case.js';
import { identifierCases } from './contract/identifier-cases.js';
import { stateValueCases } from './contract/state-value-cases.js';
import { leaseCases } from './contract/lease-cases.js';
import { runFencingCases } from './contract/run-fencing-cases.js';
import { blobCases } from './contract/blob-cases.js';
import type { BlobLimits } from '../sessions/blobs/blob-limits.js';

export interface SessionStoreContractOptions {
  /** Shown in the test names. */
  readonly name: string;
  /** A fresh, empty store for each test. */
  readonly createStore: () => SessionStore | Promise<SessionStore>;
  /** Called after each test with the store it used. */
  readonly disposeStore?: (store: SessionStore) => void | Promise<void>;
  /** The test API: `{ describe, it, expect }` from vitest (or Jest). */
  readonly test: ContractTestApi;
  /**
   * The lease cases: `true` requires `acquireLease`/`renewLease`/`releaseLease` (a store without
   * them fails); `false` skips them (the `Runner` then relies on versions alone); by default they
   * check a store that has the methods and pass over one that has none.
   */
  readonly leases?: boolean;
  /**
   * The blob cases (images and files kept apart from the log, `readBlob`): `true` requires
   * `readBlob`; `false` skips them; by default they check a store that has it.
   */
  readonly blobs?: boolean;
  /** A fresh store with these blob size limits, for the limit cases (skipped without it). */
  readonly createStoreWithLimits?: (limits: BlobLimits) => SessionStore | Promise<SessionStore>;
}

/**
 * The behaviour every `SessionStore` must have, including the identifier rules (bad ids refused
 * with `InvalidArgumentError`, distinct ids never sharing storage), the JSON-state rules
 * (values read back exactly; anything else refused with `StateValueError`, nothing stored), and
 * runs over the store (a `Runner` never starts a tool once its run was aborted or lost its lease,
 * also while the append storing the call is in flight). Run it from a test file of your store:
 * `runSessionStoreContract({ name: 'mine', createStore: () => new MyStore(), test: { describe, it, expect } })`.
 */
export function runSessionStoreContract(options: SessionStoreContractOptions): void {
  const { describe, it, expect } = options.test;
  const app = 'contract-app';
  const withStore = (body: (store: SessionStore) => Promise<void>) => async () => {
    const store = await options.createStore();
    try {
      await body(store);
    } finally {
      await options.disposeStore?.(store);
    }
  };
  const key = (id: string, userId = 'u1') => ({ appName: app, userId, id });
  const expectRejects = async (promise: Promise<unknown>, name: string) => {
    let error: unknown;
    try {
      await promise;
    } catch (e) {
      error = e;
    }
    expect((error as Error | undefined)?.name).toBe(name);
  };

  describe(`SessionStore contract: ${options.name}`, () => {
    it(
      'creates a session with its first events and reads it back',
      withStore(async (store) => {
        const first = contractEvent('hello');
        const created = await store.create({ ...key('s1'), state: { topic: 'x' } }, [first]);
        expect(created.version).toBe(1);
        const got = await store.get(key('s1'));
        expect(got?.events.map((e) => e.id)).toEqual([first.id]);
        expect(got?.events[0]).toEqual(first);
        expect(got?.state.topic).toBe('x');
        expect(got?.version).toBe(1);
      }),
    );

    it(
      'returns undefined for an absent session',
      withStore(async (store) => {
        expect(await store.get(key('nope'))).toBeUndefined();
      }),
    );

    it(
      'refuses to create a session twice',
      withStore(async (store) => {
        await store.create(key('dup'));
        await expectRejects(store.create(key('dup')), 'SessionExistsError');
      }),
    );

    it(
      'appends events in order and folds their state deltas',
      withStore(async (store) => {
        await store.create(key('s2'));
        const a = contractEvent('a', { actions: { stateDelta: { count: 1, keep: 'k' } } });
        const b = contractEvent('b', { actions: { stateDelta: { count: 2 } } });
        expect((await store.appendEvents(key('s2'), [a], { expectedVersion: 0 })).version).toBe(1);
        expect((await store.appendEvents(key('s2'), [b], { expectedVersion: 1 })).version).toBe(2);
        const got = await store.get(key('s2'));
        expect(got?.events.map((e) => e.id)).toEqual([a.id, b.id]);
        expect(got?.state).toMatchObject({ count: 2, keep: 'k' });
      }),
    );

    it(
      'rejects a stale expectedVersion and writes nothing',
      withStore(async (store) => {
        await store.create(key('s3'), [contractEvent('one')]);
        await expectRejects(
          store.appendEvents(key('s3'), [contractEvent('two'), contractEvent('three')], { expectedVersion: 0 }),
          'ConcurrentUpdateError',
        );
        const got = await store.get(key('s3'));
        expect(got?.events.length).toBe(1);
        expect(got?.version).toBe(1);
      }),
    );

    it(
      'lets exactly one of two concurrent appends at the same version win',
      withStore(async (store) => {
        await store.create(key('race'));
        const results = await Promise.allSettled([
          store.appendEvents(key('race'), [contractEvent('x')], { expectedVersion: 0 }),
          store.appendEvents(key('race'), [contractEvent('y')], { expectedVersion: 0 }),
        ]);
        expect(results.filter((r) => r.status === 'fulfilled').length).toBe(1);
        const rejected = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
        expect((rejected.reason as Error).name).toBe('ConcurrentUpdateError');
        expect((await store.get(key('race')))?.events.length).toBe(1);
      }),
    );

    it(
      'appends several events atomically in one call',
      withStore(async (store) => {
        await store.create(key('batch'));
        const events = [contractEvent('1'), contractEvent('2'), contractEvent('3')];
        expect((await store.appendEvents(key('batch'), events, { expectedVersion: 0 })).version).toBe(3);
        expect((await store.get(key('batch')))?.events.map((e) => e.id)).toEqual(events.map((e) => e.id));
      }),
    );

    it(
      'fails to append to an absent session',
      withStore(async (store) => {
        await expectRejects(store.appendEvents(key('ghost'), [contractEvent('x')], { expectedVersion: 0 }), 'SessionNotFoundError');
      }),
    );

    it(
      'appends stateAppend items to list state, storing only the new items',
      withStore(async (store) => {
        await store.create(key('lists'));
        const first = contractEvent('a', { actions: { stateDelta: { steps: ['s1'] } } });
        const second = contractEvent('b', { actions: { stateAppend: { steps: ['s2', 's3'], 'temp:x': [1] } } });
        const third = contractEvent('c', { actions: { stateAppend: { fresh: [{ id: 1 }] } } });
        await store.appendEvents(key('lists'), [first, second], { expectedVersion: 0 });
        await store.appendEvents(key('lists'), [third], { expectedVersion: 2 });
        const got = await store.get(key('lists'));
        expect(got?.state.steps).toEqual(['s1', 's2', 's3']);
        expect(got?.state.fresh).toEqual([{ id: 1 }]);
        expect(got?.state['temp:x']).toBeUndefined();
        expect(got?.events[1]?.actions?.stateAppend).toEqual({ steps: ['s2', 's3'] });
      }),
    );

    it(
      'never stores temp: keys',
      withStore(async (store) => {
        await store.create(key('temp'));
        await store.appendEvents(key('temp'), [contractEvent('t', { actions: { stateDelta: { 'temp:scratch': 1, kept: 2 } } })], {
          expectedVersion: 0,
        });
        const got = await store.get(key('temp'));
        expect(got?.state['temp:scratch']).toBeUndefined();
        expect(got?.state.kept).toBe(2);
        expect(got?.events[0]?.actions?.stateDelta?.['temp:scratch']).toBeUndefined();
      }),
    );

    it(
      "shares app: state across users and user: state across one user's sessions",
      withStore(async (store) => {
        await store.create(key('a1', 'alice'));
        await store.create(key('a2', 'alice'));
        await store.create(key('b1', 'bob'));
        await store.appendEvents(
          key('a1', 'alice'),
          [contractEvent('s', { actions: { stateDelta: { 'app:motd': 'hi', 'user:lang': 'fr', own: 1 } } })],
          { expectedVersion: 0 },
        );
        const a2 = await store.get(key('a2', 'alice'));
        const b1 = await store.get(key('b1', 'bob'));
        expect(a2?.state).toMatchObject({ 'app:motd': 'hi', 'user:lang': 'fr' });
        expect(a2?.state.own).toBeUndefined();
        expect(b1?.state['app:motd']).toBe('hi');
        expect(b1?.state['user:lang']).toBeUndefined();
      }),
    );

    it(
      'keeps users apart: another user cannot read or append to a session',
      withStore(async (store) => {
        await store.create(key('private', 'alice'), [contractEvent('secret')]);
        expect(await store.get(key('private', 'mallory'))).toBeUndefined();
        await expectRejects(
          store.appendEvents(key('private', 'mallory'), [contractEvent('x')], { expectedVersion: 1 }),
          'SessionNotFoundError',
        );
        expect((await store.get(key('private', 'alice')))?.events.length).toBe(1);
      }),
    );

    it(
      "lists a user's sessions in pages",
      withStore(async (store) => {
        for (let i = 0; i < 5; i++) await store.create(key(`p${i}`, 'lister'));
        await store.create(key('other', 'someone-else'));
        const first = await store.list({ appName: app, userId: 'lister', limit: 2 });
        expect(first.sessions.length).toBe(2);
        expect(first.nextCursor).toBeDefined();
        const ids = [...first.sessions.map((s) => s.id)];
        let cursor = first.nextCursor;
        while (cursor) {
          const page = await store.list({ appName: app, userId: 'lister', limit: 2, cursor });
          ids.push(...page.sessions.map((s) => s.id));
          cursor = page.nextCursor;
        }
        expect(ids.sort()).toEqual(['p0', 'p1', 'p2', 'p3', 'p4']);
      }),
    );

    it(
      'deletes a session and its events',
      withStore(async (store) => {
        await store.create(key('gone'), [contractEvent('x')]);
        await store.delete(key('gone'));
        expect(await store.get(key('gone'))).toBeUndefined();
        await store.delete(key('gone'));
        await store.create(key('gone'));
        expect((await store.get(key('gone')))?.events.length).toBe(0);
      }),
    );

    it(
      'round-trips every content block and action as plain JSON',
      withStore(async (store) => {
        const rich = contractEvent('rich', {
          author: 'agent',
          path: 'root/agent',
          branch: 'root.a',
          message: {
            role: 'assistant',
            content: [
              { type: 'reasoning', reasoning: 'think', signature: 'sig==', provider: 'anthropic' },
              { type: 'reasoning', reasoning: '', redacted: true, data: 'ENC' },
              { type: 'text', text: 'unicode ✓ "quotes" \n newline' },
              { type: 'tool_call', id: 'call_1::sig', name: 'search', args: { q: 'x', n: [1, 2] } },
            ],
          },
          usage: { inputTokens: 3, outputTokens: 4, reasoningTokens: 1 },
          actions: {
            interrupt: { id: 'i1', reason: 'approval', payload: { a: 1 } },
            agentState: { index: 2 },
            final: { text: 'done', structured: { ok: true } },
          },
          meta: { kind: 'plan', stepId: 's1' },
        });
        await store.create(key('rich'), [rich]);
        expect((await store.get(key('rich')))?.events[0]).toEqual(rich);
      }),
    );

    identifierCases({ it, expect, withStore, app });
    stateValueCases({ it, expect, withStore, app });
    if (options.leases !== false) leaseCases({ it, expect, withStore, app }, options.leases);
    runFencingCases({ it, expect, withStore, app });
    if (options.blobs !== false)
      blobCases(
        { it, expect, withStore, app },
        { required: options.blobs, createStoreWithLimits: options.createStoreWithLimits, disposeStore: options.disposeStore },
      );
  });
}
