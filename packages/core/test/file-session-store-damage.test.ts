import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ConcurrentUpdateError, FileSessionStore, SessionCorruptError } from '@replan/core';
import { SESSION_SCHEMA_VERSION, thisProcess } from '@replan/core/store-kit';
import { contractEvent } from '@replan/core/testing';

/** A lock as another process on this machine, in this pid namespace, writes it (with its own pid and start). */
const { pid: _pid, start: _start, ...sameMachine } = thisProcess();

const dirs: string[] = [];
async function freshStore(options: { lockTimeoutMs?: number; staleLockMs?: number } = {}): Promise<FileSessionStore> {
  const dir = await mkdtemp(join(tmpdir(), 'replan-file-damage-'));
  dirs.push(dir);
  return new FileSessionStore({ dir, ...options });
}
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

const key = (id: string, userId = 'u1') => ({ appName: 'app', userId, id });
const fileOf = (store: FileSessionStore, id: string) => join(store.dir, 'sessions', 'app', 'u1', `${id}.jsonl`);

async function failure(promise: Promise<unknown>): Promise<Error> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(Error);
  return error as Error;
}

/** Replaces the `line`-th line (1-based) of a session file. */
async function damageLine(file: string, line: number, change: (text: string) => string): Promise<void> {
  const lines = (await readFile(file, 'utf8')).split('\n');
  lines[line - 1] = change(lines[line - 1]!);
  await writeFile(file, lines.join('\n'));
}

describe('FileSessionStore refuses damage instead of spreading it', () => {
  it('refuses to append to a log with a corrupt middle line, names file and line, and leaves the file unchanged', async () => {
    for (const sameStore of [false, true]) {
      const store = await freshStore();
      await store.create(key('s'), [contractEvent('a')]);
      // With `sameStore`, the store has appended before (and knows the file); the damage comes after.
      await store.appendEvents(key('s'), [contractEvent('b')], { expectedVersion: 1 });
      await store.appendEvents(key('s'), [contractEvent('c')], { expectedVersion: 2 });
      const file = fileOf(store, 's');
      await damageLine(file, 3, (t) => `${t.slice(0, 60)}#garbage#`);
      const before = await readFile(file);
      const writer = sameStore ? store : new FileSessionStore({ dir: store.dir });
      const error = await failure(writer.appendEvents(key('s'), [contractEvent('d')], { expectedVersion: 3 }));
      expect(error).toBeInstanceOf(SessionCorruptError);
      expect(error.message).toContain(join('sessions', 'app', 'u1', 's.jsonl'));
      expect(error.message).toMatch(/line 3 /);
      expect((await readFile(file)).equals(before)).toBe(true);
      await store.close();
    }
  });

  it('refuses to append to a file whose header is another session’s, and leaves it unchanged', async () => {
    const store = await freshStore();
    await store.create(key('mine'), [contractEvent('a')]);
    const file = fileOf(store, 'mine');
    await damageLine(file, 1, (t) => t.replace('"id":"mine"', '"id":"theirs"'));
    const before = await readFile(file);
    const error = await failure(store.appendEvents(key('mine'), [contractEvent('x')], { expectedVersion: 1 }));
    expect(error).toBeInstanceOf(SessionCorruptError);
    expect(error.message).toMatch(/holds session "theirs"/);
    expect((await readFile(file)).equals(before)).toBe(true);
  });

  it('delete refuses a file whose header names another session; get reports it as corrupt', async () => {
    const store = await freshStore();
    await store.create(key('mine'), [contractEvent('a')]);
    const file = fileOf(store, 'mine');
    await damageLine(file, 1, (t) => t.replace('"userId":"u1"', '"userId":"u2"'));
    expect(await failure(store.get(key('mine')))).toBeInstanceOf(SessionCorruptError);
    const error = await failure(store.delete(key('mine')));
    expect(error).toBeInstanceOf(SessionCorruptError);
    expect(existsSync(file)).toBe(true);
  });

  it('list reports damaged sessions by id and file and still lists the healthy ones', async () => {
    const store = await freshStore();
    for (const id of ['ok-1', 'bad-header', 'ok-2', 'bad-middle']) await store.create(key(id), [contractEvent('a'), contractEvent('b')]);
    await writeFile(fileOf(store, 'bad-header'), '{"schemaVersion":1,"kind":"replan.sess\n');
    await damageLine(fileOf(store, 'bad-middle'), 3, (t) => t.replace('"seq":2', '"seq":7'));
    await damageLine(fileOf(store, 'bad-middle'), 3, (t) => t.replace(`"schemaVersion":${SESSION_SCHEMA_VERSION}`, '"schemaVersion":9'));
    const page = await store.list({ appName: 'app', userId: 'u1' });
    expect(page.sessions.map((s) => s.id).sort()).toEqual(['ok-1', 'ok-2']);
    const damaged = [...(page.damaged ?? [])].sort((a, b) => a.file.localeCompare(b.file));
    expect(damaged.map((d) => [d.id, d.file])).toEqual([
      [undefined, join('sessions', 'app', 'u1', 'bad-header.jsonl')],
      ['bad-middle', join('sessions', 'app', 'u1', 'bad-middle.jsonl')],
    ]);
    expect(damaged[0]!.error).toMatch(/line 1 of sessions.app.u1.bad-header\.jsonl/);
    expect(damaged[1]!.error).toMatch(/schemaVersion 9/);
  });
});

describe('FileSessionStore fencing: no acknowledged append is lost when the lock is', () => {
  it('deleted while a large append holds it and a second append races at the same version', async () => {
    const a = await freshStore();
    const b = new FileSessionStore({ dir: a.dir });
    await a.create(key('s'), [contractEvent('first')]);
    const lockFile = `${fileOf(a, 's')}.lock`;
    const big = contractEvent('big', { meta: { pad: 'p'.repeat(40 * 1024 * 1024) } });
    const small = contractEvent('small');
    const first = a.appendEvents(key('s'), [big], { expectedVersion: 1 }).then(
      (r) => ({ ok: r }),
      (e: unknown) => ({ error: e }),
    );
    // Take the lock away from the first writer as soon as it holds it, then race it.
    while (!existsSync(lockFile)) await new Promise((r) => setImmediate(r));
    await unlink(lockFile);
    const second = b.appendEvents(key('s'), [small], { expectedVersion: 1 }).then(
      (r) => ({ ok: r }),
      (e: unknown) => ({ error: e }),
    );
    const results = await Promise.all([first, second]);
    const wins = results.filter((r) => 'ok' in r);
    const losses = results.filter((r) => 'error' in r);
    expect(wins.length).toBe(1);
    expect(losses.length).toBe(1);
    expect((losses[0] as { error: unknown }).error).toBeInstanceOf(ConcurrentUpdateError);
    const winner = results[0] === wins[0] ? big : small;
    const loaded = await new FileSessionStore({ dir: a.dir }).get(key('s'));
    expect(loaded?.version).toBe(2);
    expect(loaded?.events.map((e) => e.id)).toEqual([expect.any(String), winner.id]);
    // Later appends still work and still load.
    await b.appendEvents(key('s'), [contractEvent('after')], { expectedVersion: 2 }).catch(async () => {
      await new Promise((r) => setTimeout(r, 50));
      return b.appendEvents(key('s'), [contractEvent('after')], { expectedVersion: 2 });
    });
    expect((await new FileSessionStore({ dir: a.dir }).get(key('s')))?.version).toBe(3);
    await Promise.all([a.close(), b.close()]);
  });
});

describe('FileSessionStore keeps no stale handle', () => {
  it('a session deleted and created again by another store: the next append goes to the new file', async () => {
    const a = await freshStore();
    await a.create(key('s'));
    await a.appendEvents(key('s'), [contractEvent('old')], { expectedVersion: 0 }); // a now holds the lock and file briefly
    const b = new FileSessionStore({ dir: a.dir, lockTimeoutMs: 2000 });
    await b.delete(key('s'));
    await b.create(key('s'));
    const fresh = contractEvent('new');
    expect((await a.appendEvents(key('s'), [fresh], { expectedVersion: 0 })).version).toBe(1);
    expect((await b.get(key('s')))?.events.map((e) => e.id)).toEqual([fresh.id]);
    await a.close();
  });
});

describe('FileSessionStore locks: liveness, not age, on this host', () => {
  it('breaks at once a lock whose pid is alive but is another process (pid reused)', async () => {
    if (!existsSync('/proc/self/stat')) return; // start times come from /proc (Linux)
    const store = await freshStore({ lockTimeoutMs: 300, staleLockMs: 60_000 });
    await store.create(key('s'));
    const sleeper = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 20000)']);
    try {
      await new Promise((r) => setTimeout(r, 100));
      const lock = { pid: sleeper.pid, ...sameMachine, token: 't', since: Date.now(), start: '1' };
      await writeFile(`${fileOf(store, 's')}.lock`, JSON.stringify(lock));
      expect((await store.appendEvents(key('s'), [contractEvent('x')], { expectedVersion: 0 })).version).toBe(1);
    } finally {
      sleeper.kill('SIGKILL');
    }
  });

  it('a lock held by a live process: the error says to wait or stop it, never to delete lock files', async () => {
    const store = await freshStore({ lockTimeoutMs: 200 });
    await store.create(key('s'));
    const lock = { pid: process.ppid, ...sameMachine, token: 't', since: Date.now() };
    await writeFile(`${fileOf(store, 's')}.lock`, JSON.stringify(lock));
    const error = await failure(store.delete(key('s')));
    expect(error.message).toMatch(/still alive/);
    expect(error.message).toMatch(/stop that process/);
    expect(error.message).not.toMatch(/delete (that|the) lock/i);
    expect(await readdir(join(store.dir, 'sessions', 'app', 'u1'))).toContain('s.jsonl');
  });
});
