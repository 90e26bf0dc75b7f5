// @replan/memory (design §23): stores, tools, recall middleware and consolidation are added by issue 36.
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
// The agent side: tools that write, middleware that reads, and consolidation after a run (docs/memory.md).
export { memoryTools, type MemoryToolsOptions } from './agent/memory-tools.js';
export { recallMemories, type RecallMemoriesOptions } from './agent/recall-memories.js';
export { consolidate, type ConsolidateOptions } from './agent/consolidate.js';
