/**
 * `@replan/memory/testing` — the contract suite every `MemoryStore` passes.
 * @module
 */
export { runMemoryStoreContract } from './memory-store-contract.js';
