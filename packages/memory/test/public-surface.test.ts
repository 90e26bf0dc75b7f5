import { describe, expect, it } from 'vitest';

// Listed so that a change to the public surface is a visible diff (types are pinned by scripts/count-exports.ts).
describe('public surface of @replan/memory', () => {
  it('exports the stores, the one error class, and the agent side (tools, recall middleware, consolidation)', async () => {
    expect(Object.keys(await import('@replan/memory')).sort()).toEqual([
      'FileMemoryStore',
      'InMemoryMemoryStore',
      'MemoryError',
      'consolidate',
      'memoryTools',
      'recallMemories',
    ]);
  });
  it('/testing exports the contract suite', async () => {
    expect(Object.keys(await import('@replan/memory/testing')).sort()).toEqual(['runMemoryStoreContract']);
  });
  it('/postgres exports the PostgreSQL store', async () => {
    expect(Object.keys(await import('@replan/memory/postgres')).sort()).toEqual(['PostgresMemoryStore']);
  });
});
