import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { FileMemoryStore, type MemoryItem } from '@replan/memory';
import { processScratch } from '../../core/test/support/process-scratch.js';

const writer = fileURLToPath(new URL('./support/memory-writer.ts', import.meta.url));
const scope = { appName: 'app', userId: 'shared' };
const { children, dir: scratchDir } = processScratch();

async function freshDir(): Promise<string> {
  const dir = await scratchDir('replan-memory-procs-');
  return dir;
}

/** Starts a writer; `ids` fills with the ids it has printed (acknowledged puts). */
function startWriter(dir: string, tag: string, count: number) {
  const child = spawn(process.execPath, ['--import', 'tsx', writer, dir, tag, String(count)], { stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  const ids: string[] = [];
  let out = '';
  let err = '';
  child.stdout!.on('data', (d) => {
    out += d;
    const lines = out.split('\n');
    out = lines.pop()!;
    ids.push(...lines);
  });
  child.stderr!.on('data', (d) => (err += d));
  const exited = new Promise<{ code: number | null; err: string }>((resolve) => child.on('exit', (code) => resolve({ code, err })));
  return { child, ids, exited };
}

async function all(store: FileMemoryStore): Promise<MemoryItem[]> {
  const items: MemoryItem[] = [];
  let cursor: string | undefined;
  do {
    const page = await store.list({ scope, limit: 1000, ...(cursor !== undefined && { cursor }) });
    items.push(...page.items);
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  return items;
}

describe('FileMemoryStore across processes', () => {
  it('three writer processes on one scope: every put kept whole, none interleaved', async () => {
    const dir = await freshDir();
    const writers = ['a', 'b', 'c'].map((tag) => startWriter(dir, tag, 100));
    for (const { exited } of writers) {
      const { code, err } = await exited;
      expect(code, err).toBe(0);
    }
    const items = await all(new FileMemoryStore({ dir }));
    expect(items).toHaveLength(300);
    expect(new Set(items.map((i) => i.id)).size).toBe(300);
    expect(items.map((i) => i.id).sort()).toEqual(writers.flatMap((w) => w.ids).sort());
    for (const item of items) expect(item.text).toBe(`${item.metadata?.tag} memory ${item.metadata?.n} ${'x'.repeat(200)}`);
  }, 60_000);

  it('a writer killed mid-write loses no acknowledged put, and the scope stays usable', async () => {
    const dir = await freshDir();
    const victim = startWriter(dir, 'victim', 0);
    while (victim.ids.length < 50) await new Promise((r) => setTimeout(r, 5));
    victim.child.kill('SIGKILL');
    await victim.exited;
    const store = new FileMemoryStore({ dir });
    const ids = new Set((await all(store)).map((i) => i.id));
    for (const id of victim.ids) expect(ids.has(id)).toBe(true);
    const after = await store.put({ scope, kind: 'fact', text: 'after the kill' });
    const reread = await all(new FileMemoryStore({ dir }));
    expect(reread.at(-1)).toEqual(after);
    expect(reread).toHaveLength(ids.size + 1);
  }, 60_000);
});
