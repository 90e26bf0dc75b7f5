/**
 * `@replan/memory/postgres` — `PostgresMemoryStore` (needs the `pg` package).
 * @module
 */
export { PostgresMemoryStore, type PostgresMemoryStoreOptions } from './postgres-memory-store.js';
