import { FileSessionStore, type SessionStore } from '@replan/core';
import { StudioError } from '../errors.js';
import { checkStoreDirectory } from './store-directory.js';

/**
 * `--store`: a PostgreSQL URL (needs `@replan/postgres`) or a `FileSessionStore` directory that
 * exists and holds a store (`mayBeNew`: an empty directory too).
 */
export async function openStore(spec: string, options: { readonly mayBeNew?: boolean } = {}): Promise<SessionStore> {
  if (/^postgres(ql)?:\/\//i.test(spec)) {
    let postgres: typeof import('@replan/postgres');
    try {
      postgres = await import('@replan/postgres');
    } catch {
      throw new StudioError('usage', 'A postgres:// store needs the @replan/postgres package: pnpm add @replan/postgres pg');
    }
    return new postgres.PostgresSessionStore({ connectionString: spec });
  }
  return new FileSessionStore({ dir: checkStoreDirectory(spec, options) });
}
