import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { FileSessionStore, ReActAgent, Runner, tool, type AgentEvent } from '@replan/core';
import { ScriptedModel, callTools, contractEvent } from '@replan/core/testing';
import { fileStoreFlushes } from '../src/sessions/file/flush-count.js';

// Flushes are counted, not timed: a flush costs 0.5–10 ms depending on the disk, its count is what must not grow.

const stores: FileSessionStore[] = [];
const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(stores.splice(0).map((s) => s.close()));
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

/** A store whose user directory exists already (a user's first session also flushes the new directories). */
async function storeWithUser(): Promise<{ store: FileSessionStore; dir: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'replan-file-flushes-'));
  dirs.push(dir);
  const store = new FileSessionStore({ dir });
  stores.push(store);
  await store.create({ appName: 'app', userId: 'u', id: 'earlier' });
  return { store, dir };
}

const TOOLS = 8;
const work = tool({
  name: 'work',
  description: 'waits a moment',
  parameters: z.object({ i: z.number() }),
  execute: async ({ i }) => {
    await new Promise((r) => setTimeout(r, 20));
    return i;
  },
});

/** The flushes one run of the runner makes from start to result. */
async function flushesOfRun(store: FileSessionStore, sessionId: string, withTools: boolean): Promise<number> {
  const calls = Array.from({ length: TOOLS }, (_, i) => ({ name: 'work', args: { i } }));
  const model = new ScriptedModel({ responses: withTools ? [callTools(...calls), 'done'] : ['done'] });
  const agent = new ReActAgent({ name: 'agent', model, tools: [work], toolConcurrency: TOOLS });
  const runner = new Runner({ agent, appName: 'app', sessionStore: store });
  const before = fileStoreFlushes();
  const result = await runner.run({ userId: 'u', sessionId, input: 'go' }).result();
  expect(result.status).toBe('completed');
  return fileStoreFlushes() - before;
}

describe('FileSessionStore flushes per run', () => {
  it('a one-turn run makes at most 3 flushes: the new session with its input, the answer, the end', async () => {
    const { store } = await storeWithUser();
    expect(await flushesOfRun(store, 'one-turn', false)).toBeLessThanOrEqual(3);
    // A further turn of the same session: the input, the answer, the end (the lease is not flushed).
    expect(await flushesOfRun(store, 'one-turn', false)).toBeLessThanOrEqual(3);
  });

  it('8 parallel tool results do not each pay their own flush', async () => {
    const { store } = await storeWithUser();
    // The new session, the tool calls, the results together, the answer, the end: 4–5 (measured 4). One spare for
    // results a loaded machine splits in two appends; a flush per result would be 8 for them alone (before: 9 in all).
    expect(await flushesOfRun(store, 'tools', true)).toBeLessThanOrEqual(6);
    const session = await store.get({ appName: 'app', userId: 'u', id: 'tools' });
    expect(session?.events.filter((e: AgentEvent) => e.message?.role === 'tool')).toHaveLength(TOOLS);
  });

  it('creating a session with its first events is one flush, the file and its name together', async () => {
    const { store } = await storeWithUser();
    const before = fileStoreFlushes();
    const first = contractEvent('first');
    await store.create({ appName: 'app', userId: 'u', id: 'fresh' }, [first]);
    expect(fileStoreFlushes() - before).toBe(process.platform === 'linux' ? 1 : 2);
    // What was acknowledged reads back from a new store over the same directory.
    const again = new FileSessionStore({ dir: store.dir });
    stores.push(again);
    expect((await again.get({ appName: 'app', userId: 'u', id: 'fresh' }))?.events.map((e) => e.id)).toEqual([first.id]);
  });

  it('an empty session file (a one-flush creation a power loss cut short) is no session, and the id can be created again', async () => {
    const { store } = await storeWithUser();
    const key = { appName: 'app', userId: 'u', id: 'cut-short' };
    await writeFile(join(store.dir, 'sessions', 'app', 'u', 'cut-short.jsonl'), '');
    expect(await store.get(key)).toBeUndefined();
    expect(await store.list({ appName: 'app', userId: 'u' })).toEqual({ sessions: [expect.objectContaining({ id: 'earlier' })] });
    await expect(store.appendEvents(key, [contractEvent('e1')], { expectedVersion: 0 })).rejects.toMatchObject({
      name: 'SessionNotFoundError',
    });
    const runner = new Runner({
      agent: new ReActAgent({ name: 'agent', model: new ScriptedModel({ responses: ['done'] }) }),
      appName: 'app',
      sessionStore: store,
    });
    expect(await runner.run({ userId: 'u', sessionId: 'cut-short', input: 'go' }).result()).toMatchObject({ status: 'completed' });
    expect((await store.get(key))?.events.map((e) => e.message?.role ?? 'end')).toEqual(['user', 'assistant', 'end']);
  });

  it('a blob keeps its own flushes, content before name, before the event naming it', async () => {
    const { store } = await storeWithUser();
    const key = { appName: 'app', userId: 'u', id: 'earlier' };
    const image = (bytes: number[]) => ({
      ...contractEvent(`img-${bytes[0]}`),
      message: {
        role: 'user' as const,
        content: [{ type: 'image' as const, mediaType: 'image/png', data: Buffer.from(bytes).toString('base64') }],
      },
    });
    await store.appendEvents(key, [image([1, 2, 3])], { expectedVersion: 0 }); // makes the blob directory
    const before = fileStoreFlushes();
    await store.appendEvents(key, [image([4, 5, 6])], { expectedVersion: 1 });
    // The blob's content, then its directory entry (a log must never name a blob a crash left short), then the log.
    expect(fileStoreFlushes() - before).toBe(3);
    const again = new FileSessionStore({ dir: store.dir });
    stores.push(again);
    const stored = (await again.get(key))?.events[1]?.message?.content[0] as { blob: string };
    expect([...(await again.readBlob(key, stored.blob))]).toEqual([4, 5, 6]);
  });

  it('leases are not flushed, and a lease change uses the lock an append still holds instead of waiting for it', async () => {
    const { store: first } = await storeWithUser();
    // Shorter than the 50 ms an append keeps its lock: a lease change that waited for that lock would time out.
    const store = new FileSessionStore({ dir: first.dir, lockTimeoutMs: 20 });
    stores.push(store);
    const key = { appName: 'app', userId: 'u', id: 'earlier' };
    const before = fileStoreFlushes();
    const lease = await store.acquireLease(key, { owner: 'me', ttlMs: 60_000 });
    await store.appendEvents(key, [contractEvent('e1')], { expectedVersion: 0, lease });
    const lockFile = join(store.dir, 'sessions', 'app', 'u', 'earlier.jsonl.lock');
    await stat(lockFile); // still held after the append
    await store.releaseLease(key, lease);
    await expect(stat(lockFile)).rejects.toMatchObject({ code: 'ENOENT' }); // and let go with the lease change
    expect(fileStoreFlushes() - before).toBe(1); // the append alone
    expect(await store.leaseHolder(key)).toBeUndefined();
  });

  it('reads an empty lease file (an unflushed lease write cut short by a power loss) as no lease', async () => {
    const { store } = await storeWithUser();
    const key = { appName: 'app', userId: 'u', id: 'earlier' };
    await store.acquireLease(key, { owner: 'died-with-the-machine', ttlMs: 60_000 });
    const leaseFile = join(store.dir, 'sessions', 'app', 'u', 'earlier.lease');
    for (const lost of ['', '\0\0\0\0']) {
      await writeFile(leaseFile, lost);
      expect(await store.leaseHolder(key)).toBeUndefined();
      const lease = await store.acquireLease(key, { owner: 'next', ttlMs: 60_000 });
      expect(lease.owner).toBe('next');
      await store.releaseLease(key, lease);
    }
    // Anything else that is not a lease record is still refused as damage.
    await writeFile(leaseFile, '{"token":');
    await expect(store.leaseHolder(key)).rejects.toMatchObject({ name: 'SessionCorruptError' });
  });
});
