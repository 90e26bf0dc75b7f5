import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FileMemoryStore } from '@replan/memory';
import { runMemoryStoreContract } from '@replan/memory/testing';

const dirs: string[] = [];
afterAll(async () => {
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

runMemoryStoreContract({
  name: 'FileMemoryStore',
  createStore: async (setup) => {
    const dir = await mkdtemp(join(tmpdir(), 'replan-memory-'));
    dirs.push(dir);
    return new FileMemoryStore({ dir, ...setup });
  },
  test: { describe, it, expect },
});
