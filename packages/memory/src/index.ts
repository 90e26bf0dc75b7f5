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
// The agent side: tools that write, middleware that reads, and consolidation after a run (docs/memory.md).
export { memoryTools, type MemoryToolsOptions } from './agent/memory-tools.js';
export { recallMemories, type RecallMemoriesOptions } from './agent/recall-memories.js';
export { consolidate, type ConsolidateOptions } from './agent/consolidate.js';
