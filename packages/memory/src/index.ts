// @replan/memory: the store contract and the stores; tools, recall middleware and consolidation build on them.
export type {
  Embedder,
  MemoryHit,
  MemoryItem,
  MemoryKind,
  MemoryList,
  MemoryScope,
  MemorySearch,
  MemorySource,
  MemoryStore,
  NewMemory,
} from './memory-store.js';
export { MemoryError, type MemoryErrorKind } from './memory-error.js';
export type { MemoryLimits } from './store/memory-rules.js';
export { InMemoryMemoryStore, type MemoryStoreOptions } from './in-memory-memory-store.js';
export { FileMemoryStore, type FileMemoryStoreOptions } from './file-memory-store.js';
