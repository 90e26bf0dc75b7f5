/**
 * `@replan/memory/testing` — the contract suite every `MemoryStore` passes (design §23).
 * @module
 */
export { runMemoryStoreContract } from './memory-store-contract.js';
