import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { FileSessionStore, type SessionStore } from '@replan/core';
import { CliUsageError } from '../errors.js';

/** `--store`: a PostgreSQL URL (needs `@replan/postgres`) or a `FileSessionStore` directory. */
export async function openStore(spec: string): Promise<SessionStore> {
  if (/^postgres(ql)?:\/\//i.test(spec)) {
    let postgres: typeof import('@replan/postgres');
    try {
      postgres = await import('@replan/postgres');
    } catch {
      throw new CliUsageError('A postgres:// store needs the @replan/postgres package: pnpm add @replan/postgres pg');
    }
    return new postgres.PostgresSessionStore({ connectionString: spec });
  }
  const dir = resolve(spec);
  if (existsSync(dir) && !statSync(dir).isDirectory())
    throw new CliUsageError(`--store ${spec} is a file: give the FileSessionStore directory (or a postgres:// URL).`);
  return new FileSessionStore({ dir });
}
