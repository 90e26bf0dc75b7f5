import { mkdtemp, readdir, readFile, rm, stat, writeFile, appendFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FileSessionStore, SessionCorruptError, type SessionStore } from '@replan/core';
import { SESSION_SCHEMA_VERSION } from '@replan/core/store-kit';
import { contractEvent, runSessionStoreContract } from '@replan/core/testing';

const dirs: string[] = [];
async function freshDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'replan-file-store-'));
  dirs.push(dir);
  return dir;
}
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

runSessionStoreContract({
  name: 'FileSessionStore',
  createStore: async () => new FileSessionStore({ dir: await freshDir() }),
  test: { describe, it, expect },
  leases: true,
  blobs: true,
  createStoreWithLimits: async (limits) => new FileSessionStore({ dir: await freshDir(), ...limits }),
});

const key = (id: string, userId = 'u1') => ({ appName: 'app', userId, id });

async function storeWith(id: string, texts: string[]): Promise<{ store: FileSessionStore; file: string }> {
  const store = new FileSessionStore({ dir: await freshDir() });
  await store.create(
    key(id),
    texts.map((t) => contractEvent(t)),
  );
  const userDir = join(store.dir, 'sessions', 'app', 'u1');
  const file = join(userDir, (await readdir(userDir)).find((n) => n.endsWith('.jsonl'))!);
  return { store, file };
}

async function corruptError(promise: Promise<unknown>): Promise<SessionCorruptError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(SessionCorruptError);
  return error as SessionCorruptError;
}

describe('FileSessionStore files', () => {
  it('writes a header line, then one line per event carrying schemaVersion', async () => {
    const { file } = await storeWith('s', ['a', 'b']);
    const lines = (await readFile(file, 'utf8'))
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines[0]).toMatchObject({ schemaVersion: SESSION_SCHEMA_VERSION, appName: 'app', userId: 'u1', id: 's' });
    expect(lines.slice(1).map((l) => [l.schemaVersion, l.seq])).toEqual([
      [SESSION_SCHEMA_VERSION, 1],
      [SESSION_SCHEMA_VERSION, 2],
    ]);
  });

  it('only appends: earlier bytes never change and each same-sized step adds the same bytes', async () => {
    const { store, file } = await storeWith('grow', []);
    const before = await readFile(file);
    const inode = (await stat(file)).ino;
    const growth: number[] = [];
    for (let v = 0; v < 30; v++) {
      const size = (await stat(file)).size;
      await store.appendEvents(key('grow'), [contractEvent('x'.repeat(50), { id: `event-${String(v).padStart(4, '0')}` })], {
        expectedVersion: v,
      });
      growth.push((await stat(file)).size - size);
    }
    expect(new Set(growth.slice(9)).size).toBe(1); // same digits count from event 10 on
    const after = await readFile(file);
    expect(after.subarray(0, before.length).equals(before)).toBe(true);
    expect((await stat(file)).ino).toBe(inode);
  });

  it('ignores a torn last line (no newline), and the next append goes after it without cutting it off', async () => {
    const { store, file } = await storeWith('torn', ['a', 'b']);
    await appendFile(file, '{"schemaVersion":1,"seq":3,"eventId":"half","end":true,"event":{"id":"ha');
    const got = await store.get(key('torn'));
    expect(got?.version).toBe(2);
    expect(got?.events.map((e) => e.message?.content[0])).toEqual([
      { type: 'text', text: 'a' },
      { type: 'text', text: 'b' },
    ]);
    expect((await store.list({ appName: 'app', userId: 'u1' })).sessions[0]?.version).toBe(2);
    const c = contractEvent('c');
    await store.appendEvents(key('torn'), [c], { expectedVersion: 2 });
    // Nothing is ever cut off (a writer whose lock was lost could still be writing there): the
    // torn bytes stay, ended by a newline, and the next batch says where the committed log ended.
    const text = await readFile(file, 'utf8');
    expect(text.includes('"half"')).toBe(true);
    expect(JSON.parse(text.trimEnd().split('\n').at(-1)!)).toMatchObject({ seq: 3, after: expect.any(Number), end: true });
    expect((await store.get(key('torn')))?.events.map((e) => e.id).at(-1)).toBe(c.id);
  });

  it('ignores an unparsable last line and a batch torn before its end marker', async () => {
    const { store, file } = await storeWith('batch', ['a']);
    const e2 = contractEvent('b');
    // A crash after the first of two lines of one append: complete line, but no `end` marker.
    await appendFile(file, `${JSON.stringify({ schemaVersion: 1, seq: 2, eventId: e2.id, event: e2 })}\n`);
    await appendFile(file, '\u0000\u0000\u0000\n');
    expect((await store.get(key('batch')))?.version).toBe(1);
    await expect(store.appendEvents(key('batch'), [contractEvent('z')], { expectedVersion: 2 })).rejects.toMatchObject({
      name: 'ConcurrentUpdateError',
      actualVersion: 1,
    });
    expect((await store.appendEvents(key('batch'), [contractEvent('c')], { expectedVersion: 1 })).version).toBe(2);
    expect((await store.get(key('batch')))?.events.length).toBe(2);
  });

  it('fails on a corrupt middle line with SessionCorruptError naming the session and event', async () => {
    const { store, file } = await storeWith('bad', ['a', 'b', 'c']);
    const lines = (await readFile(file, 'utf8')).split('\n');
    const victim = JSON.parse(lines[2]!).eventId as string;
    // Damage the line after its event id: the JSON no longer parses.
    lines[2] = `${lines[2]!.slice(0, lines[2]!.indexOf(',"event":') + 12)}#garbage#`;
    await writeFile(file, lines.join('\n'));
    const error = await corruptError(store.get(key('bad')));
    expect(error.sessionId).toBe('bad');
    expect(error.eventId).toBe(victim);
    expect(error.message).toMatch(/line 3 .*not valid JSON/);
  });

  it('fails on an event that does not match the event schema', async () => {
    const { store, file } = await storeWith('shape', ['a', 'b']);
    const lines = (await readFile(file, 'utf8')).split('\n');
    const line = JSON.parse(lines[1]!);
    line.event.timestamp = 'yesterday';
    lines[1] = JSON.stringify(line);
    await writeFile(file, lines.join('\n'));
    const error = await corruptError(store.get(key('shape')));
    expect(error.eventId).toBe(line.eventId);
    expect(error.message).toMatch(/timestamp/);
  });

  it('fails on a repeated line (events out of order)', async () => {
    const { store, file } = await storeWith('dup', ['a', 'b']);
    const lines = (await readFile(file, 'utf8')).split('\n');
    lines.splice(2, 0, lines[1]!);
    await writeFile(file, lines.join('\n'));
    expect((await corruptError(store.get(key('dup')))).message).toMatch(/numbered 1 where event 2 belongs/);
  });

  it('refuses a foreign schema version in the header, an event line, or the last line', async () => {
    const header = await storeWith('h', ['a']);
    const h = (await readFile(header.file, 'utf8')).replace(`"schemaVersion":${SESSION_SCHEMA_VERSION}`, '"schemaVersion":99');
    await writeFile(header.file, h);
    expect((await corruptError(header.store.get(key('h')))).message).toMatch(/schemaVersion 99/);
    await expect(header.store.appendEvents(key('h'), [contractEvent('x')], { expectedVersion: 1 })).rejects.toBeInstanceOf(
      SessionCorruptError,
    );

    for (const index of [1, 2]) {
      const { store, file } = await storeWith(`e${index}`, ['a', 'b']);
      const lines = (await readFile(file, 'utf8')).split('\n');
      const line = JSON.parse(lines[index]!);
      lines[index] = JSON.stringify({ ...line, schemaVersion: SESSION_SCHEMA_VERSION + 1 });
      await writeFile(file, lines.join('\n'));
      const error = await corruptError(store.get(key(`e${index}`)));
      expect(error.eventId).toBe(line.eventId);
      expect(error.message).toMatch(new RegExp(`schemaVersion ${SESSION_SCHEMA_VERSION + 1}`));
      if (index === 2)
        await expect(store.appendEvents(key('e2'), [contractEvent('x')], { expectedVersion: 2 })).rejects.toBeInstanceOf(
          SessionCorruptError,
        );
    }
  });

  it('refuses a session file that belongs to another key', async () => {
    const { store, file } = await storeWith('mine', ['a']);
    await writeFile(file, (await readFile(file, 'utf8')).replace('"id":"mine"', '"id":"theirs"'));
    expect((await corruptError(store.get(key('mine')))).message).toMatch(/holds session "theirs"/);
  });

  it('reports a corrupt shared state file as SessionCorruptError', async () => {
    const store = new FileSessionStore({ dir: await freshDir() });
    await store.create({ ...key('s'), state: { 'app:x': 1 } });
    await writeFile(join(store.dir, 'app-state', 'app.json'), '{"schemaVersion":1,"sta');
    expect((await corruptError(store.get(key('s')))).message).toMatch(/shared state file/);
  });

  it('reports an unknown session and keeps other users out', async () => {
    const store = new FileSessionStore({ dir: await freshDir() });
    expect(await store.get(key('none'))).toBeUndefined();
    await expect(store.appendEvents(key('none'), [contractEvent('x')], { expectedVersion: 0 })).rejects.toMatchObject({
      name: 'SessionNotFoundError',
    });
    await store.create(key('private', 'alice'), [contractEvent('secret')]);
    await store.create(key('other', 'bob'));
    await expect(store.appendEvents(key('private', 'bob'), [contractEvent('x')], { expectedVersion: 1 })).rejects.toMatchObject({
      name: 'SessionNotFoundError',
    });
    await store.delete(key('private', 'bob'));
    expect((await store.get(key('private', 'alice')))?.version).toBe(1);
    expect((await store.list({ appName: 'app', userId: 'bob' })).sessions.map((s) => s.id)).toEqual(['other']);
  });

  it('keeps any id safe and distinct: path tricks, case, unicode and very long ids', async () => {
    const store = new FileSessionStore({ dir: await freshDir() });
    // Since issue 10, empty ids and ids over MAX_ID_LENGTH (256) are refused (see the store contract suite).
    const ids = ['../../escape', 'A', 'a', 'a/b', 'a\\b', '.', '..', 'con', 'ñ✓ 😀', '%41', 'x'.repeat(256), `${'x'.repeat(255)}y`];
    for (const [i, id] of ids.entries()) await store.create(key(id, '../user'), [contractEvent(`n${i}`)]);
    for (const [i, id] of ids.entries())
      expect((await store.get(key(id, '../user')))?.events[0]?.message?.content[0]).toEqual({ type: 'text', text: `n${i}` });
    const listed = await store.list({ appName: 'app', userId: '../user', limit: 100 });
    expect(listed.sessions.map((s) => s.id).sort()).toEqual([...ids].sort());
    expect(await readdir(store.dir)).toEqual(['sessions']);
    for (const name of await readdir(join(store.dir, 'sessions', 'app', '%2E%2E%2Fuser')))
      expect(Buffer.byteLength(name)).toBeLessThan(200);
  });

  it('pages through many sessions in creation order without repeats', async () => {
    const store = new FileSessionStore({ dir: await freshDir() });
    for (let i = 0; i < 12; i++) await store.create(key(`s${String(i).padStart(2, '0')}`), i % 2 ? [contractEvent('e')] : []);
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await store.list({ appName: 'app', userId: 'u1', limit: 5, cursor });
      expect(page.sessions.length).toBeLessThanOrEqual(5);
      for (const s of page.sessions) expect(s.version).toBe(Number(s.id.slice(1)) % 2);
      seen.push(...page.sessions.map((s) => s.id));
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen).toEqual(Array.from({ length: 12 }, (_, i) => `s${String(i).padStart(2, '0')}`));
    await expect(store.list({ appName: 'app', userId: 'u1', cursor: 'garbage' })).rejects.toMatchObject({ name: 'InvalidArgumentError' });
    await expect(store.list({ appName: 'app', userId: 'u1', limit: 0 })).rejects.toMatchObject({ name: 'InvalidArgumentError' });
  });

  it('refuses a bad expectedVersion and a missing dir with typed errors', async () => {
    const store: SessionStore = new FileSessionStore({ dir: await freshDir() });
    await store.create(key('v'));
    await expect(store.appendEvents(key('v'), [], { expectedVersion: -1 })).rejects.toMatchObject({ name: 'InvalidArgumentError' });
    expect((await store.appendEvents(key('v'), [], { expectedVersion: 0 })).version).toBe(0);
    expect(() => new FileSessionStore({ dir: '' })).toThrow(/needs a directory/);
  });
});
