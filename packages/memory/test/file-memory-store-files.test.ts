import { appendFile, copyFile, mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FileSessionStore } from '@replan/core';
import { FileMemoryStore, type MemoryError } from '@replan/memory';

let dir: string;
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});
const freshDir = async () => {
  dir = await mkdtemp(join(tmpdir(), 'replan-memory-files-'));
  return dir;
};

async function filesUnder(root: string): Promise<string[]> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => relative(root, join(e.parentPath, e.name)));
}

const alice = { appName: 'app', userId: 'alice' };

describe('FileMemoryStore files', () => {
  it('a store reopened on the directory sees the same items, order and scores', async () => {
    const root = await freshDir();
    const first = new FileMemoryStore({ dir: root });
    for (const text of ['green tea in the morning', 'green tea again', 'coffee at noon', 'green light'])
      await first.put({ scope: alice, kind: 'fact', text, source: { sessionId: 's1' } });
    const gone = await first.put({ scope: alice, kind: 'fact', text: 'green but deleted' });
    await first.delete(alice, gone.id);
    const hits = await first.search({ scope: alice, query: 'green tea', k: 10 });
    const listed = await first.list({ scope: alice });
    const reopened = new FileMemoryStore({ dir: root });
    expect(await reopened.search({ scope: alice, query: 'green tea', k: 10 })).toEqual(hits);
    expect(await reopened.list({ scope: alice })).toEqual(listed);
    expect(listed.items).toHaveLength(4);
    expect(await reopened.get(alice, gone.id)).toBeUndefined();
  });

  it('lives in <dir>/memories beside a FileSessionStore; file names never carry an id', async () => {
    const root = await freshDir();
    const sessions = new FileSessionStore({ dir: root });
    await sessions.create({ appName: 'app', userId: '../x', id: 's1' });
    const memories = new FileMemoryStore({ dir: root });
    for (const userId of ['../x', '..', '__proto__', 'con', 'a/b', '😀'])
      await memories.put({ scope: { appName: '../../etc', userId }, kind: 'fact', text: `note of ${userId}` });
    await memories.put({ scope: { appName: 'app' }, kind: 'fact', text: 'app note' });
    const files = (await filesUnder(root)).filter((f) => !f.startsWith('sessions/'));
    expect(files.length).toBe(7);
    for (const file of files) expect(file).toMatch(/^memories\/[0-9a-f]{64}\/(app\.jsonl|users\/[0-9a-f]{64}\.jsonl)$/);
    expect((await sessions.get({ appName: 'app', userId: '../x', id: 's1' }))?.id).toBe('s1');
  });

  it('two stores on one directory (two processes) see each other’s puts, deletes and forgetUser', async () => {
    const root = await freshDir();
    const a = new FileMemoryStore({ dir: root });
    const b = new FileMemoryStore({ dir: root });
    const one = await a.put({ scope: alice, kind: 'fact', text: 'written by a' });
    expect((await b.search({ scope: alice, query: 'written' })).map((h) => h.item)).toEqual([one]);
    const two = await b.put({ scope: alice, kind: 'fact', text: 'written by b' });
    expect((await a.list({ scope: alice })).items).toEqual([one, two]);
    expect(await b.delete(alice, one.id)).toBe(true);
    expect(await a.get(alice, one.id)).toBeUndefined();
    expect(await a.delete(alice, one.id)).toBe(false);
    expect(await b.forgetUser(alice)).toBe(1);
    expect((await a.list({ scope: alice })).items).toEqual([]);
    const three = await a.put({ scope: alice, kind: 'fact', text: 'after forgetting' });
    expect((await b.list({ scope: alice })).items).toEqual([three]);
  });

  it('concurrent puts are all kept (committed in shared flushes), in id order', async () => {
    const root = await freshDir();
    const store = new FileMemoryStore({ dir: root });
    const made = await Promise.all(Array.from({ length: 60 }, (_, i) => store.put({ scope: alice, kind: 'fact', text: `burst ${i}` })));
    const listed = (await new FileMemoryStore({ dir: root }).list({ scope: alice, limit: 100 })).items;
    expect(listed.map((i) => i.id)).toEqual(made.map((i) => i.id).sort());
  });

  it('the torn tail of a crashed writer is skipped, and later records are read', async () => {
    const root = await freshDir();
    const store = new FileMemoryStore({ dir: root });
    const kept = await store.put({ scope: alice, kind: 'fact', text: 'before the crash' });
    const [file] = (await filesUnder(root)).map((f) => join(root, f));
    await appendFile(file!, '{"put":{"id":"m0000000000000000000000000","te');
    const after = new FileMemoryStore({ dir: root });
    expect((await after.list({ scope: alice })).items).toEqual([kept]);
    const later = await after.put({ scope: alice, kind: 'fact', text: 'after the crash' });
    expect((await new FileMemoryStore({ dir: root }).list({ scope: alice })).items).toEqual([kept, later]);
  });

  it("a scope file copied over another scope's is refused as 'unavailable', not read as that scope", async () => {
    const root = await freshDir();
    const store = new FileMemoryStore({ dir: root });
    await store.put({ scope: alice, kind: 'fact', text: 'alice secret' });
    await store.put({ scope: { appName: 'app', userId: 'bob' }, kind: 'fact', text: 'bob note' });
    const files = (await filesUnder(root)).map((f) => join(root, f));
    await copyFile(files[0]!, files[1]!);
    const fresh = new FileMemoryStore({ dir: root });
    const error = (await fresh.list({ scope: { appName: 'app', userId: 'bob' } }).catch((e) => e)) as MemoryError;
    const other = (await fresh.list({ scope: alice }).catch((e) => e)) as MemoryError;
    const refused = [error, other].find((e) => e instanceof Error);
    expect(refused?.kind).toBe('unavailable');
    expect(refused?.message).toContain("another scope's memories");
    // Refused every time after, also for writes, and nothing is appended to the foreign file.
    const scope = refused === error ? { appName: 'app', userId: 'bob' } : alice;
    const sizeBefore = (await stat(refused === error ? files[1]! : files[0]!)).size;
    await expect(fresh.list({ scope })).rejects.toMatchObject({ kind: 'unavailable' });
    await expect(fresh.put({ scope, kind: 'fact', text: 'more' })).rejects.toMatchObject({ kind: 'unavailable' });
    expect((await stat(refused === error ? files[1]! : files[0]!)).size).toBe(sizeBefore);
  });

  it("a directory that cannot be written is 'unavailable' (nothing half-written)", async () => {
    const root = await freshDir();
    await writeFile(join(root, 'memories'), 'a file where the folder should be');
    const store = new FileMemoryStore({ dir: root });
    const error = (await store.put({ scope: alice, kind: 'fact', text: 'x' }).catch((e) => e)) as MemoryError;
    expect([error.name, error.kind]).toEqual(['MemoryError', 'unavailable']);
    expect(error.message).toMatch(/FileMemoryStore could not (read|write)/);
    await expect(store.list({ scope: alice })).rejects.toMatchObject({ kind: 'unavailable' });
    await rm(join(root, 'memories'));
    const item = await store.put({ scope: alice, kind: 'fact', text: 'x' });
    expect((await store.list({ scope: alice })).items).toEqual([item]);
  });

  it('vectors are stored with the items: a reopened store embeds only the query', async () => {
    const root = await freshDir();
    const calls: string[][] = [];
    const embed = async (texts: readonly string[]) => {
      calls.push([...texts]);
      return texts.map((t) => [t.includes('tea') ? 1 : 0, t.includes('coffee') ? 1 : 0, 0.1]);
    };
    const first = new FileMemoryStore({ dir: root, embed });
    await first.put({ scope: alice, kind: 'fact', text: 'tea' });
    const coffee = await first.put({ scope: alice, kind: 'fact', text: 'coffee' });
    calls.length = 0;
    const reopened = new FileMemoryStore({ dir: root, embed });
    expect((await reopened.search({ scope: alice, query: 'coffee please', k: 1 })).map((h) => h.item)).toEqual([coffee]);
    expect(calls).toEqual([['coffee please']]);
  });

  it('needs a directory', () => {
    expect(() => new FileMemoryStore({ dir: '' })).toThrow(/needs a directory/);
  });
});
