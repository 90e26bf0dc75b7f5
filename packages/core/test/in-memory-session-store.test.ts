import { describe, expect, it } from 'vitest';
import { InMemorySessionStore } from '@replan/core';
import { runSessionStoreContract } from '@replan/core/testing';

runSessionStoreContract({
  name: 'InMemorySessionStore',
  createStore: () => new InMemorySessionStore(),
  test: { describe, it, expect },
  leases: true,
  blobs: true,
  createStoreWithLimits: (limits) => new InMemorySessionStore(limits),
});
