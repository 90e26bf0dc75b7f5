import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FileSessionStore, SessionBusyError, SessionCorruptError } from '@replan/core';
import { thisProcess } from '@replan/core/store-kit';
import { contractEvent } from '@replan/core/testing';

const key = { appName: 'app', userId: 'u1', id: 'leased' };
const dirs: string[] = [];
const children: ChildProcess[] = [];

async function freshStore() {
  const dir = await mkdtemp(join(tmpdir(), 'replan-file-leases-'));
  dirs.push(dir);
  const store = new FileSessionStore({ dir });
  await store.create(key, [contractEvent('hi')]);
  return { store, leaseFile: join(dir, 'sessions', 'app', 'u1', 'leased.lease') };
}

/** A lease file as another process on this machine and in this pid namespace would have written it (`holder` overrides). */
const leaseBy = (pid: number, owner = 'other-process', holder: Record<string, unknown> = {}) => {
  const { start: _start, ...here } = thisProcess();
  return JSON.stringify({ schemaVersion: 1, token: 7, holder: { owner, expiresAt: Date.now() + 60_000, ...here, pid, ...holder } });
};

async function exitedPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '']);
  await new Promise((resolve) => child.on('exit', resolve));
  return child.pid!;
}

afterEach(async () => {
  for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

describe('FileSessionStore leases on one machine', () => {
  it('keeps the lease in <session>.lease next to the log, with the holder process', async () => {
    const { store, leaseFile } = await freshStore();
    const lease = await store.acquireLease(key, { owner: 'me', ttlMs: 10_000 });
    const saved = JSON.parse(await readFile(leaseFile, 'utf8'));
    expect(saved).toMatchObject({
      schemaVersion: 1,
      token: lease.token,
      holder: { owner: 'me', expiresAt: lease.expiresAt, ...thisProcess() },
    });
    await store.releaseLease(key, lease);
    expect(JSON.parse(await readFile(leaseFile, 'utf8'))).toEqual({ schemaVersion: 1, token: lease.token, holder: null });
    // list still shows only the session
    expect((await store.list({ appName: 'app', userId: 'u1' })).sessions.map((s) => s.id)).toEqual(['leased']);
  });

  it('takes over at once, before expiry, a lease whose process on this host has exited', async () => {
    const { store, leaseFile } = await freshStore();
    await writeFile(leaseFile, leaseBy(await exitedPid()));
    const lease = await store.acquireLease(key, { owner: 'me', ttlMs: 10_000 });
    expect(lease.token).toBe(8);
  });

  it('takes over at once a lease whose pid now runs another process (its start time differs)', async () => {
    const { store, leaseFile } = await freshStore();
    const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)']);
    children.push(child);
    await writeFile(leaseFile, leaseBy(child.pid!, 'other-process', { start: '1' }));
    expect((await store.acquireLease(key, { owner: 'me', ttlMs: 10_000 })).token).toBe(8);
  });

  it('waits for the expiry of a holder it cannot judge: another host, another boot or another pid namespace', async () => {
    const { store, leaseFile } = await freshStore();
    const gone = await exitedPid();
    for (const elsewhere of [{ host: `not-${hostname()}` }, { boot: 'another-boot' }, { pidNamespace: 'pid:[1]' }]) {
      await writeFile(leaseFile, leaseBy(gone, 'elsewhere', elsewhere));
      const busy = await store.acquireLease(key, { owner: 'me', ttlMs: 10_000 }).catch((e: unknown) => e);
      expect(busy).toBeInstanceOf(SessionBusyError);
      expect((busy as SessionBusyError).owner).toBe('elsewhere');
    }
  });

  it('honours a live lease of a running process on this host until that process exits', async () => {
    const { store, leaseFile } = await freshStore();
    const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)']);
    children.push(child);
    await writeFile(leaseFile, leaseBy(child.pid!));
    const busy = await store.acquireLease(key, { owner: 'me', ttlMs: 10_000 }).catch((e: unknown) => e);
    expect(busy).toBeInstanceOf(SessionBusyError);
    expect((busy as SessionBusyError).owner).toBe('other-process');
    child.kill('SIGKILL');
    await new Promise((resolve) => child.on('exit', resolve));
    expect((await store.acquireLease(key, { owner: 'me', ttlMs: 10_000 })).token).toBe(8);
  });

  it('refuses a damaged or foreign lease file (SessionCorruptError) and writes nothing; plain appends still work', async () => {
    const { store, leaseFile } = await freshStore();
    const held = await store.acquireLease(key, { owner: 'me', ttlMs: 10_000 });
    for (const damage of ['{"schemaVersion":1,"tok', JSON.stringify({ schemaVersion: 9, token: 1, holder: null })]) {
      await writeFile(leaseFile, damage);
      expect(await store.acquireLease(key, { owner: 'me', ttlMs: 10_000 }).catch((e: unknown) => e)).toBeInstanceOf(SessionCorruptError);
      const refused = await store.appendEvents(key, [contractEvent('x')], { expectedVersion: 1, lease: held }).catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(SessionCorruptError);
      expect((refused as Error).message).toContain('leased.lease');
      expect(await readFile(leaseFile, 'utf8')).toBe(damage);
      expect((await store.get(key))?.version).toBe(1);
    }
    expect((await store.appendEvents(key, [contractEvent('plain')], { expectedVersion: 1 })).version).toBe(2);
  });
});
