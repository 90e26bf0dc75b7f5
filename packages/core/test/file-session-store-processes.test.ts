import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { ConcurrentUpdateError, FileSessionStore } from '@replan/core';
import { thisProcess } from '@replan/core/store-kit';
import { contractEvent } from '@replan/core/testing';

/** A lock as another process on this machine, in this pid namespace, writes it (with its own pid and start). */
const { pid: _pid, start: _start, ...sameMachine } = thisProcess();

const writer = fileURLToPath(new URL('./support/file-store-writer.ts', import.meta.url));
const key = { appName: 'app', userId: 'u1', id: 'shared' };
const dirs: string[] = [];
const children: ChildProcess[] = [];

async function freshStore(options: { lockTimeoutMs?: number; staleLockMs?: number } = {}) {
  const dir = await mkdtemp(join(tmpdir(), 'replan-file-procs-'));
  dirs.push(dir);
  const store = new FileSessionStore({ dir, ...options });
  await store.create(key);
  return { dir, store, lockFile: `${join(dir, 'sessions', 'app', 'u1', 'shared.jsonl')}.lock` };
}

function startWriter(dir: string, tag: string, target: string, pad = 0): ChildProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', writer, dir, key.id, tag, target, String(pad)], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  return child;
}

function finished(child: ChildProcess): Promise<{ code: number | null; out: string; err: string }> {
  let out = '';
  let err = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (err += d));
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, out, err })));
}

/** The pid of a process that has already exited. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '']);
  await new Promise((resolve) => child.on('exit', resolve));
  return child.pid!;
}

afterEach(async () => {
  for (const c of children.splice(0)) if (c.exitCode === null) c.kill('SIGKILL');
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

describe('FileSessionStore across processes', () => {
  it('two writer processes never interleave or lose an append', async () => {
    const { dir, store } = await freshStore();
    const runs = [finished(startWriter(dir, 'a', '30')), finished(startWriter(dir, 'b', '30'))];
    const results = await Promise.all(runs);
    for (const r of results) expect(r.code, r.err).toBe(0);
    const session = (await store.get(key))!;
    // Each writer made 30 winning appends; every event of every win is there exactly once, in batch order.
    const ids = session.events.map((e) => e.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const tag of ['a', 'b']) {
      const mine = ids.filter((id) => id.startsWith(`${tag}-`));
      const batches = new Set(mine.map((id) => id.split('-')[1]));
      expect(batches.size).toBe(30);
      for (let i = 0; i < mine.length; i++) {
        const [, batch, index] = mine[i]!.split('-');
        if (index !== '0') expect(mine[i - 1]).toBe(`${tag}-${batch}-${Number(index) - 1}`);
      }
    }
    expect(session.version).toBe(ids.length);
    const stats = results.map((r) => JSON.parse(r.out) as { wins: number; conflicts: number });
    expect(stats.map((s) => s.wins)).toEqual([30, 30]);
  });

  it('recovers after a writer is killed mid-append: torn tail ignored, its lock broken', async () => {
    const { dir, store } = await freshStore({ lockTimeoutMs: 5_000 });
    for (let round = 0; round < 4; round++) {
      const child = startWriter(dir, `k${round}`, 'forever', 200_000);
      const done = finished(child);
      // Kill it once it has appended at least once, at a moment that varies per round.
      await new Promise<void>((resolve) => child.stdout!.once('data', () => resolve()));
      await new Promise((r) => setTimeout(r, 5 + round * 7));
      child.kill('SIGKILL');
      await done;
      const session = (await store.get(key))!;
      const next = contractEvent(`after kill ${round}`);
      expect((await store.appendEvents(key, [next], { expectedVersion: session.version })).version).toBe(session.version + 1);
      expect((await store.get(key))?.events.at(-1)?.id).toBe(next.id);
    }
  });

  it('breaks a lock left by a dead process at once', async () => {
    const { store, lockFile } = await freshStore({ lockTimeoutMs: 1_000 });
    await writeFile(lockFile, JSON.stringify({ pid: await deadPid(), ...sameMachine, token: 't', since: Date.now() }));
    const started = Date.now();
    expect((await store.appendEvents(key, [contractEvent('x')], { expectedVersion: 0 })).version).toBe(1);
    expect(Date.now() - started).toBeLessThan(900);
  });

  it('waits for a live holder, then fails with ConcurrentUpdateError and writes nothing', async () => {
    const { store, lockFile } = await freshStore({ lockTimeoutMs: 200 });
    const live = { pid: process.ppid, ...sameMachine, token: 't', since: Date.now() };
    await writeFile(lockFile, JSON.stringify(live));
    const started = Date.now();
    const error = await store.appendEvents(key, [contractEvent('x')], { expectedVersion: 0 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConcurrentUpdateError);
    expect(Date.now() - started).toBeGreaterThanOrEqual(190);
    expect((await store.get(key))?.version).toBe(0);
    expect(JSON.parse(await readFile(lockFile, 'utf8'))).toEqual(live); // a live lock is never taken
    await expect(store.delete(key)).rejects.toMatchObject({ name: 'SessionStoreError', message: /delete that lock file/ });
  });

  it('breaks an old lock from another host after staleLockMs', async () => {
    const { store, lockFile } = await freshStore({ lockTimeoutMs: 2_000, staleLockMs: 100 });
    await writeFile(lockFile, JSON.stringify({ pid: 1, host: 'another-host', token: 't', since: 0 }));
    await new Promise((r) => setTimeout(r, 150));
    expect((await store.appendEvents(key, [contractEvent('x')], { expectedVersion: 0 })).version).toBe(1);
  });
});
