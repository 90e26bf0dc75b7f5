import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { ReActAgent, Runner } from '@replan/core';
import { ScriptedModel } from '@replan/core/testing';
import { PostgresSessionStore } from '@replan/postgres';
import { dbosRuns, type DbosRuns } from '@replan/dbos';
import { useTestPostgres } from '../../../postgres/test/support/use-test-postgres.js';
import { startWorker, type WorkerConfig, type WorkerProcess } from './worker-process.js';

/** The DBOS system database URL of a cluster: database `name` on the same server. */
export function databaseUrl(connectionString: string, name: string): string {
  const url = new URL(connectionString);
  url.pathname = `/${name}`;
  return url.toString();
}

export const lines = async <T>(file: string): Promise<T[]> =>
  (await readFile(file, 'utf8').catch(() => ''))
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as T);

/**
 * A throwaway cluster with one session schema and one DBOS system database for the file, this
 * process launched as a DBOS client (`worker: false`) for apps `e2e`, `approve` and `slow`, and worker
 * processes started with `worker()` (all killed in `afterAll`).
 */
export function useDbos(options: { leaseMs: number }) {
  const db = useTestPostgres();
  const state: { runs?: DbosRuns; store?: PostgresSessionStore; workDir?: string; schema?: string; systemDatabaseUrl?: string } = {};
  const workers = new Set<WorkerProcess>();
  beforeAll(async () => {
    let connectionString: string;
    try {
      connectionString = db.connectionString;
    } catch {
      return; // no cluster (skipped outside CI)
    }
    state.schema = db.freshSchema('dbos');
    state.systemDatabaseUrl = databaseUrl(connectionString, `${state.schema}_sys`);
    state.workDir = await mkdtemp(join(tmpdir(), 'replan-dbos-'));
    state.store = new PostgresSessionStore({ connectionString, schema: state.schema, maxConnections: 4 });
    const idle = () => new ReActAgent({ name: 'agent', model: new ScriptedModel({ respond: () => 'unused' }) });
    state.runs = dbosRuns({
      runners: ['e2e', 'approve', 'slow'].map((appName) => new Runner({ agent: idle(), appName, sessionStore: state.store! })),
      pollMs: 50,
    });
    await state.runs.launch({ systemDatabaseUrl: state.systemDatabaseUrl, worker: false });
  });
  const killAll = async () => {
    for (const w of workers) w.child.kill('SIGKILL');
    await Promise.all([...workers].map((w) => w.exited));
  };
  // Each test's workers end with it: a worker left running would pick up the next test's runs.
  afterEach(killAll);
  afterAll(async () => {
    await killAll();
    await state.runs?.shutdown();
    await state.store?.close();
    if (state.workDir) await rm(state.workDir, { recursive: true, force: true });
  });
  const get = <K extends keyof typeof state>(key: K) => {
    const value = state[key];
    if (value === undefined) throw new Error(`useDbos: no ${key} (the cluster did not start)`);
    return value as NonNullable<(typeof state)[K]>;
  };
  return {
    db,
    workers,
    get runs() {
      return get('runs');
    },
    get store() {
      return get('store');
    },
    get workDir() {
      return get('workDir');
    },
    get systemDatabaseUrl() {
      return get('systemDatabaseUrl');
    },
    /** Starts a worker process; it is killed after the test if still running. */
    worker(config: Pick<WorkerConfig, 'label' | 'app'> & Partial<WorkerConfig>): WorkerProcess {
      const w = startWorker({
        connectionString: db.connectionString,
        systemDatabaseUrl: get('systemDatabaseUrl'),
        schema: get('schema'),
        workDir: get('workDir'),
        leaseMs: options.leaseMs,
        latencyMs: 20,
        concurrency: 3,
        ...config,
      });
      workers.add(w);
      void w.exited.then(() => workers.delete(w));
      return w;
    },
  };
}
