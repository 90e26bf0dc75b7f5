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
