import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FileSessionStore } from '@replan/core';
import { SESSION_SCHEMA_VERSION } from '@replan/core/store-kit';
import { contractEvent } from '@replan/core/testing';
import { addPendingWrites } from '../src/sessions/file/scope-state-file.js';

const dirs: string[] = [];
async function freshStore(): Promise<FileSessionStore> {
  const dir = await mkdtemp(join(tmpdir(), 'replan-file-shared-'));
  dirs.push(dir);
  return new FileSessionStore({ dir });
}
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

const key = (id: string) => ({ appName: 'app', userId: 'u1', id });
const userFile = (store: FileSessionStore) => join(store.dir, 'user-state', 'app', 'u1.json');
const lock = { timeoutMs: 1000, staleMs: 30_000 };
const setCredits = (n: number) => contractEvent(`credits ${n}`, { actions: { stateDelta: { 'user:credits': n } } });

describe('FileSessionStore app:/user: state is all-or-nothing with its events', () => {
  it('a failed append (an unserialisable value next to user:credits) leaves no user:credits anywhere', async () => {
    const store = await freshStore();
    await store.create(key('a'));
    await store.create(key('b'));
    const bad = contractEvent('bad', { meta: { n: 10n as unknown as number } });
    await expect(store.appendEvents(key('a'), [setCredits(100), bad], { expectedVersion: 0 })).rejects.toThrow();
    expect((await store.get(key('b')))?.state['user:credits']).toBeUndefined();
    expect((await store.get(key('a')))?.state['user:credits']).toBeUndefined();
    expect((await store.get(key('a')))?.version).toBe(0);
    // A fresh store (another process) sees the same.
    expect((await new FileSessionStore({ dir: store.dir }).get(key('b')))?.state['user:credits']).toBeUndefined();
  });

  it('a crash after the pending write but before the event: nobody sees the value; the next write drops it', async () => {
    const store = await freshStore();
    await store.create(key('a'));
    await store.create(key('b'));
    await store.appendEvents(key('a'), [setCredits(1)], { expectedVersion: 0 });
    // What a writer killed between its pending write and its event write leaves behind.
    await addPendingWrites(
      userFile(store),
      'u1.json',
      { 'user:credits': { value: 999, session: key('a'), seq: 2, eventId: 'never-written' } },
      lock,
    );
    expect((await store.get(key('b')))?.state['user:credits']).toBe(1);
    expect((await store.get(key('a')))?.state['user:credits']).toBe(1);
    // The session goes on: seq 2 is another event, so the dead write can never commit.
    await store.appendEvents(key('a'), [setCredits(2)], { expectedVersion: 1 });
    expect((await store.get(key('b')))?.state['user:credits']).toBe(2);
    const file = JSON.parse(await readFile(userFile(store), 'utf8'));
    expect(file).toEqual({ schemaVersion: SESSION_SCHEMA_VERSION, state: { 'user:credits': 2 } });
  });

  it('a crash after the event but before settling: the committed value is seen (rolled forward)', async () => {
    const store = await freshStore();
    await store.create(key('a'));
    await store.create(key('b'));
    const event = setCredits(42);
    await store.appendEvents(key('a'), [event], { expectedVersion: 0 });
    // What a writer killed after its event was durable but before it settled the state file leaves.
    await writeFile(
      userFile(store),
      JSON.stringify({
        schemaVersion: 1,
        state: {},
        pending: { 'user:credits': [{ value: 42, session: key('a'), seq: 1, eventId: event.id }] },
      }),
    );
    expect((await store.get(key('b')))?.state['user:credits']).toBe(42);
  });

  it('a create whose file was never written leaves no initial shared state', async () => {
    const store = await freshStore();
    await store.create(key('b'));
    await addPendingWrites(
      userFile(store),
      'u1.json',
      { 'user:plan': { value: 'pro', session: key('ghost'), seq: 0, eventId: 'create-x' } },
      lock,
    );
    expect((await store.get(key('b')))?.state['user:plan']).toBeUndefined();
    await store.create({ ...key('c'), state: { 'user:plan': 'free' } });
    expect((await store.get(key('b')))?.state['user:plan']).toBe('free');
  });
});

describe('FileSessionStore app:/user: state under SIGKILL', () => {
  it('a writer killed at random points: the other session sees exactly the last committed user:credits', async () => {
    const { spawn } = await import('node:child_process');
    const { fileURLToPath } = await import('node:url');
    const script = fileURLToPath(new URL('./support/shared-state-writer.ts', import.meta.url));
    const store = await freshStore();
    await store.create(key('a'));
    await store.create(key('b'));
    for (let round = 0; round < 10; round++) {
      const child = spawn(process.execPath, ['--import', 'tsx', script, store.dir, String(200_000)], { stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      child.stdout!.on('data', (d) => (out += d));
      // Kill once it has made some appends, at a point that lands anywhere within one.
      while (out.split('\n').length < 3 + round) await new Promise((r) => setTimeout(r, 5));
      await new Promise((r) => setTimeout(r, Math.random() * 15));
      child.kill('SIGKILL');
      await new Promise((r) => child.on('exit', r));
      const acked = out.trim().split('\n').map(Number);
      const a = (await new FileSessionStore({ dir: store.dir }).get(key('a')))!;
      const lastCommitted = a.events.at(-1)?.actions?.stateDelta?.['user:credits'];
      expect(lastCommitted).toBeGreaterThanOrEqual(acked.at(-1)!); // nothing acknowledged is lost
      expect((await new FileSessionStore({ dir: store.dir }).get(key('b')))?.state['user:credits']).toBe(lastCommitted);
    }
  }, 60_000);
});
