export { PostgresSessionStore } from './postgres-session-store.js';
export type { PostgresSessionStoreOptions } from './postgres-session-store.js';
export { MIGRATIONS } from './migrations.js';
