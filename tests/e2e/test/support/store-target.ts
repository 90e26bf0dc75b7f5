import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileSessionStore, type Session, type SessionStore } from '@replan/core';
import { PostgresSessionStore } from '@replan/postgres';

/** Which store a child process opens (see child/open-store.mjs). */
export type StoreConfig =
  | { readonly kind: 'file'; readonly dir: string }
  | { readonly kind: 'postgres'; readonly connectionString: string; readonly schema: string };

export const APP = 'e2e';

/** A fresh, isolated store for one scenario: a temp dir (file) or a fresh schema (PostgreSQL). */
export interface StoreTarget {
  readonly config: StoreConfig;
  /** Where the child processes keep their side-effect and attempt logs. */
  readonly workDir: string;
  /** The parent's own view of the store (the same data the children use). */
  readonly store: SessionStore;
  session(id: string, userId?: string): Promise<Session | undefined>;
  dispose(): Promise<void>;
}

export type TargetFactory = () => Promise<StoreTarget>;

async function target(config: (workDir: string) => StoreConfig, store: (c: StoreConfig) => SessionStore): Promise<StoreTarget> {
  const workDir = await mkdtemp(join(tmpdir(), 'replan-e2e-'));
  const c = config(workDir);
  const s = store(c);
  return {
    config: c,
    workDir,
    store: s,
    session: (id, userId = 'u1') => s.get({ appName: APP, userId, id }),
    async dispose() {
      await s.close?.();
      await rm(workDir, { recursive: true, force: true });
    },
  };
}

export const fileTarget: TargetFactory = () =>
  target(
    (workDir) => ({ kind: 'file', dir: join(workDir, 'store') }),
    (c) => new FileSessionStore({ dir: (c as { dir: string }).dir }),
  );

/** Targets on one PostgreSQL cluster, each in a new schema. */
export const postgresTarget =
  (connectionString: () => string, freshSchema: () => string): TargetFactory =>
  () =>
    target(
      () => ({ kind: 'postgres', connectionString: connectionString(), schema: freshSchema() }),
      (c) => new PostgresSessionStore({ ...(c as { connectionString: string; schema: string }), maxConnections: 2 }),
    );

/** Runs `body` on a fresh target, disposing of it afterwards. */
export async function withTarget<T>(newTarget: TargetFactory, body: (target: StoreTarget) => Promise<T>): Promise<T> {
  const target = await newTarget();
  try {
    return await body(target);
  } finally {
    await target.dispose();
  }
}
