// @ts-check
/** Opens the store a child process is told to use. */
import { FileSessionStore } from '@replan/core';

/**
 * @typedef {{ kind: 'file', dir: string } | { kind: 'postgres', connectionString: string, schema: string }} StoreConfig
 */

/**
 * `pg` is loaded only for PostgreSQL (it adds to every file-store child's start-up otherwise).
 * @param {StoreConfig} config
 * @returns {Promise<import('@replan/core').SessionStore>}
 */
export async function openStore(config) {
  if (config.kind === 'file') return new FileSessionStore({ dir: config.dir });
  const { PostgresSessionStore } = await import('@replan/postgres');
  return new PostgresSessionStore({ connectionString: config.connectionString, schema: config.schema, maxConnections: 2 });
}
