import type { SessionKey } from '../../sessions/session.js';
import type { LeaseOptions, SessionLease } from '../../sessions/session-lease.js';
import type { SessionStore } from '../../sessions/session-store.js';
import { contractEvent } from './contract-event.js';
import { type ContractCaseApi, rejectionOf } from './contract-case.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const hasLeases = (store: SessionStore) => Boolean(store.acquireLease && store.renewLease && store.releaseLease);

/** The store's lease methods (checked by `leaseCases` before a case runs). */
function leasing(store: SessionStore): Required<Pick<SessionStore, 'acquireLease' | 'renewLease' | 'releaseLease'>> {
  if (!store.acquireLease || !store.renewLease || !store.releaseLease) throw new Error('unreachable: checked before the case');
  return {
    acquireLease: store.acquireLease.bind(store),
    renewLease: store.renewLease.bind(store),
    releaseLease: store.releaseLease.bind(store),
  };
}

/**
 * Leases and fencing: acquire/renew/release, a live lease refusing another owner
 * (`SessionBusyError`), takeover after expiry with a higher token, appends with a stale token
 * refused (`LeaseLostError`) writing nothing, and appends without a lease working as before.
 * Expiry is tested with short leases (tens of ms) and real waits.
 */
export function leaseCases({ it, expect, withStore, app }: ContractCaseApi, required: boolean | undefined): void {
  /** A lease case's body: a store without lease methods fails it when leases are required, else it has nothing to check. */
  const withLeasingStore = (body: (store: SessionStore) => Promise<void>) =>
    withStore(async (store) => {
      if (!hasLeases(store)) {
        if (required)
          throw new Error(
            'This store has no acquireLease/renewLease/releaseLease: implement them, or pass { leases: false } to runSessionStoreContract.',
          );
        return;
      }
      await body(store);
    });
  const key = (id: string): SessionKey => ({ appName: app, userId: 'u1', id });
  const a: LeaseOptions = { owner: 'worker-a', ttlMs: 60_000 };
  const b: LeaseOptions = { owner: 'worker-b', ttlMs: 60_000 };
  /** Holds a short lease for `a`'s owner, then waits until it has expired. */
  const expiredLease = async (store: SessionStore, k: SessionKey): Promise<SessionLease> => {
    const lease = await leasing(store).acquireLease(k, { owner: a.owner, ttlMs: 40 });
    await sleep(120);
    return lease;
  };
  const versionOf = async (store: SessionStore, k: SessionKey) => (await store.get(k))?.version;

  it(
    'acquires a lease (owner, token, expiry), renews it with the same token and releases it',
    withLeasingStore(async (store) => {
      const leases = leasing(store);
      await store.create(key('l1'), [contractEvent('hi')]);
      const before = Date.now();
      const lease = await leases.acquireLease(key('l1'), a);
      expect(lease.owner).toBe('worker-a');
      expect(Number.isSafeInteger(lease.token) && lease.token >= 1).toBe(true);
      // The store's clock (PostgreSQL's) may differ a little from this process's.
      expect(lease.expiresAt).toBeGreaterThan(before + 60_000 - 5_000);
      expect(lease.expiresAt).toBeLessThan(Date.now() + 60_000 + 5_000);
      await sleep(5);
      const renewed = await leases.renewLease(key('l1'), lease, 120_000);
      expect(renewed.token).toBe(lease.token);
      expect(renewed.owner).toBe('worker-a');
      expect(renewed.expiresAt).toBeGreaterThan(lease.expiresAt);
      await leases.releaseLease(key('l1'), renewed);
      // Released: another owner gets it at once, with a new token (a released token is never reused).
      const next = await leases.acquireLease(key('l1'), b);
      expect(next.owner).toBe('worker-b');
      expect(next.token).toBeGreaterThan(lease.token);
      // Renewing or appending with the released lease is refused.
      expect((await rejectionOf(leases.renewLease(key('l1'), renewed, 1_000)))?.name).toBe('LeaseLostError');
    }),
  );

  it(
    'tells who holds the lease (leaseHolder, when the store has it): the holder while live, nobody once released or expired',
    withLeasingStore(async (store) => {
      if (!store.leaseHolder) return; // optional: a store without it only loses the studio's "stalled" status
      const leases = leasing(store);
      await store.create(key('h1'), [contractEvent('hi')]);
      expect(await store.leaseHolder(key('h1'))).toBeUndefined(); // never leased
      expect(await store.leaseHolder(key('nobody'))).toBeUndefined(); // no such session
      const lease = await leases.acquireLease(key('h1'), a);
      expect(await store.leaseHolder(key('h1'))).toEqual({ owner: 'worker-a', expiresAt: lease.expiresAt });
      await leases.releaseLease(key('h1'), lease);
      expect(await store.leaseHolder(key('h1'))).toBeUndefined();
      await store.create(key('h2'), [contractEvent('hi')]);
      await expiredLease(store, key('h2'));
      expect(await store.leaseHolder(key('h2'))).toBeUndefined();
    }),
  );

  it(
    'refuses a second owner while a lease is live (SessionBusyError naming holder and expiry); the same owner re-acquires with a new token',
    withLeasingStore(async (store) => {
      const leases = leasing(store);
      await store.create(key('l2'), [contractEvent('hi')]);
      const held = await leases.acquireLease(key('l2'), a);
      const busy = (await rejectionOf(leases.acquireLease(key('l2'), b))) as Error & { owner?: string; expiresAt?: number };
      expect(busy?.name).toBe('SessionBusyError');
      expect(busy).toBeInstanceOf(Error);
      expect(busy.owner).toBe('worker-a');
      expect(busy.expiresAt).toBe(held.expiresAt);
      expect(busy.message).toContain('worker-a');
      // The refused attempt changed nothing: the holder still renews.
      expect((await leases.renewLease(key('l2'), held, 60_000)).token).toBe(held.token);
      const again = await leases.acquireLease(key('l2'), a);
      expect(again.token).toBe(held.token + 1);
      expect((await rejectionOf(leases.renewLease(key('l2'), held, 60_000)))?.name).toBe('LeaseLostError');
    }),
  );

  it(
    'lets another owner take over an expired lease with a higher token; the old holder can no longer renew',
    withLeasingStore(async (store) => {
      const leases = leasing(store);
      await store.create(key('l3'), [contractEvent('hi')]);
      const old = await expiredLease(store, key('l3'));
      const taken = await leases.acquireLease(key('l3'), b);
      expect(taken.owner).toBe('worker-b');
      expect(taken.token).toBeGreaterThan(old.token);
      const lost = (await rejectionOf(leases.renewLease(key('l3'), old, 60_000))) as Error & {
        token?: number;
        currentToken?: number;
        appendRefused?: boolean;
      };
      expect(lost?.name).toBe('LeaseLostError');
      expect(lost.token).toBe(old.token);
      // A refused renewal is not a refused append: what the run stored before stays, and the error must not say otherwise.
      expect(lost.appendRefused).toBe(false);
      expect(lost.message).not.toMatch(/nothing (of it )?was written/);
      // The new holder is untouched by the failed renewal, and a stale release does not end its lease.
      await leases.releaseLease(key('l3'), old);
      expect((await rejectionOf(leases.acquireLease(key('l3'), a)))?.name).toBe('SessionBusyError');
      expect((await leases.renewLease(key('l3'), taken, 60_000)).token).toBe(taken.token);
    }),
  );

  it(
    'an expired lease nobody took over still renews and appends',
    withLeasingStore(async (store) => {
      const leases = leasing(store);
      await store.create(key('l4'), [contractEvent('hi')]);
      const old = await expiredLease(store, key('l4'));
      expect((await store.appendEvents(key('l4'), [contractEvent('late')], { expectedVersion: 1, lease: old })).version).toBe(2);
      const renewed = await leases.renewLease(key('l4'), old, 60_000);
      expect(renewed.token).toBe(old.token);
      expect((await rejectionOf(leases.acquireLease(key('l4'), b)))?.name).toBe('SessionBusyError');
    }),
  );

  it(
    'refuses an append with a stale token (LeaseLostError, a ConcurrentUpdateError) and writes nothing',
    withLeasingStore(async (store) => {
      const leases = leasing(store);
      await store.create({ ...key('l5'), state: { n: 1 } }, [contractEvent('hi')]);
      const old = await expiredLease(store, key('l5'));
      const taken = await leases.acquireLease(key('l5'), b);
      const zombie = contractEvent('zombie', { actions: { stateDelta: { n: 2, 'user:z': 'zombie' } } });
      const refused = await rejectionOf(store.appendEvents(key('l5'), [zombie], { expectedVersion: 1, lease: old }));
      expect(refused?.name).toBe('LeaseLostError');
      expect((refused as { sessionId?: string }).sessionId).toBe('l5');
      // The store refused this very append: the error says nothing of it was written.
      expect((refused as { appendRefused?: boolean }).appendRefused).toBe(true);
      expect(refused?.message).toMatch(/nothing of it was written/);
      const after = await store.get(key('l5'));
      expect(after?.version).toBe(1);
      expect(after?.events.map((e) => e.id)).not.toContain(zombie.id);
      expect(after?.state.n).toBe(1);
      expect(after?.state['user:z']).toBeUndefined();
      // The holder appends at the same version.
      const mine = contractEvent('mine');
      expect((await store.appendEvents(key('l5'), [mine], { expectedVersion: 1, lease: taken })).version).toBe(2);
      // A current token with a stale version is a plain version conflict, not a lost lease.
      const stale = await rejectionOf(store.appendEvents(key('l5'), [contractEvent('x')], { expectedVersion: 1, lease: taken }));
      expect(stale?.name).toBe('ConcurrentUpdateError');
      // A released lease appends no more.
      await leases.releaseLease(key('l5'), taken);
      expect((await rejectionOf(store.appendEvents(key('l5'), [contractEvent('y')], { expectedVersion: 2, lease: taken })))?.name).toBe(
        'LeaseLostError',
      );
      expect(await versionOf(store, key('l5'))).toBe(2);
    }),
  );

  it(
    'appends without a lease work as before, also while a lease is held',
    withLeasingStore(async (store) => {
      const leases = leasing(store);
      await store.create(key('l6'), [contractEvent('hi')]);
      expect((await store.appendEvents(key('l6'), [contractEvent('plain')], { expectedVersion: 1 })).version).toBe(2);
      const held = await leases.acquireLease(key('l6'), a);
      expect((await store.appendEvents(key('l6'), [contractEvent('plain 2')], { expectedVersion: 2 })).version).toBe(3);
      expect((await store.appendEvents(key('l6'), [contractEvent('leased')], { expectedVersion: 3, lease: held })).version).toBe(4);
      expect(await versionOf(store, key('l6'))).toBe(4);
    }),
  );

  it(
    'refuses leases on an absent session (SessionNotFoundError) and bad lease arguments (InvalidArgumentError)',
    withLeasingStore(async (store) => {
      const leases = leasing(store);
      expect((await rejectionOf(leases.acquireLease(key('absent'), a)))?.name).toBe('SessionNotFoundError');
      await store.create(key('l7'), [contractEvent('hi')]);
      const bad: unknown[] = [
        { owner: '', ttlMs: 1000 },
        { owner: 'a\nb', ttlMs: 1000 },
        { owner: 'x', ttlMs: 0 },
        { owner: 'x', ttlMs: 1.5 },
        { owner: 'x', ttlMs: Number.NaN },
        { owner: 7, ttlMs: 1000 },
      ];
      for (const options of bad)
        expect({ options, name: (await rejectionOf(leases.acquireLease(key('l7'), options as LeaseOptions)))?.name }).toEqual({
          options,
          name: 'InvalidArgumentError',
        });
      const held = await leases.acquireLease(key('l7'), a);
      expect((await rejectionOf(leases.renewLease(key('l7'), held, -5)))?.name).toBe('InvalidArgumentError');
      const forged = { owner: 'worker-a', token: 'one' } as unknown as SessionLease;
      expect((await rejectionOf(store.appendEvents(key('l7'), [contractEvent('x')], { expectedVersion: 1, lease: forged })))?.name).toBe(
        'InvalidArgumentError',
      );
      expect(await versionOf(store, key('l7'))).toBe(1);
      // None of the refused calls disturbed the holder.
      expect((await leases.renewLease(key('l7'), held, 60_000)).token).toBe(held.token);
    }),
  );

  it(
    'gives each of many concurrent acquirers of a free session a distinct outcome: one lease, the rest busy',
    withLeasingStore(async (store) => {
      const leases = leasing(store);
      await store.create(key('l8'), [contractEvent('hi')]);
      const outcomes = await Promise.allSettled(
        Array.from({ length: 6 }, (_, i) => leases.acquireLease(key('l8'), { owner: `racer-${i}`, ttlMs: 60_000 })),
      );
      const won = outcomes.filter((o) => o.status === 'fulfilled');
      expect(won.length).toBe(1);
      for (const o of outcomes) if (o.status === 'rejected') expect((o.reason as Error).name).toBe('SessionBusyError');
    }),
  );
}
