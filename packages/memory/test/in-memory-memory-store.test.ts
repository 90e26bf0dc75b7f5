import { describe, expect, it } from 'vitest';
import { InMemoryMemoryStore } from '@replan/memory';
import { runMemoryStoreContract } from '@replan/memory/testing';

runMemoryStoreContract({
  name: 'InMemoryMemoryStore',
  createStore: (setup) => new InMemoryMemoryStore(setup),
  test: { describe, it, expect },
});
