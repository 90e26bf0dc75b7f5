/**
 * PostgreSQL group commit, before and after: appends per second from 8 concurrent sessions (one
 * event per append, each awaited before the next in its session), alternating a baseline build
 * of @replan/postgres and this one on the same cluster, 5 rounds each, so both see the same load.
 *
 * Run: build the baseline in another worktree (e.g. `git worktree add /tmp/replan-base <commit>`,
 * then `pnpm install && pnpm build` there), then here:
 *   pnpm build && REPLAN_BASELINE_POSTGRES=/tmp/replan-base/packages/postgres/dist/index.js npx tsx bench/postgres-group-commit.ts [off|on]
 * `on` runs the cluster with fsync and synchronous commit on (default: off).
 */
import type { AgentEvent, SessionStore } from '@replan/core';
import { PostgresSessionStore } from '@replan/postgres';
import { startTestPostgres } from '../packages/postgres/test/support/test-postgres.js';
import { unfinishedLog } from './session-log.js';

type StoreClass = new (options: { connectionString: string; schema: string; maxConnections: number }) => SessionStore;

const key = (id: string) => ({ appName: 'bench', userId: 'u', id });
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;

async function appendsPerSecond(store: SessionStore, sessions: number, perSession = 300): Promise<number> {
  const logs = Array.from({ length: sessions }, () => unfinishedLog(perSession + 1));
  await Promise.all(logs.map((log, s) => store.create(key(`s${s}`), log.slice(0, 1))));
  const t0 = performance.now();
  await Promise.all(
    logs.map(async (log, s) => {
      for (let i = 1; i <= perSession; i++) await store.appendEvents(key(`s${s}`), [log[i] as AgentEvent], { expectedVersion: i });
    }),
  );
  const ms = performance.now() - t0;
  await store.close?.();
  return ((sessions * perSession) / ms) * 1000;
}

const baselinePath = process.env.REPLAN_BASELINE_POSTGRES;
if (!baselinePath)
  throw new Error('Set REPLAN_BASELINE_POSTGRES to the dist/index.js of a baseline build of @replan/postgres (see the top of this file).');
const baseline = ((await import(baselinePath)) as { PostgresSessionStore: StoreClass }).PostgresSessionStore;
const fsync = process.argv[2] === 'on';
const cluster = await startTestPostgres({ fsync });
try {
  const rates: Record<'baseline' | 'this build', number[]> = { baseline: [], 'this build': [] };
  let n = 0;
  for (let round = 0; round < 5; round++)
    for (const [name, Store] of [
      ['baseline', baseline],
      ['this build', PostgresSessionStore as StoreClass],
    ] as const)
      rates[name].push(
        await appendsPerSecond(new Store({ connectionString: cluster.connectionString, schema: `gc${n++}`, maxConnections: 10 }), 8),
      );
  const [before, after] = [median(rates.baseline), median(rates['this build'])];
  console.log(
    `fsync ${fsync ? 'on' : 'off'}, 8 sessions, appends/s (median of 5): baseline ${before.toFixed(0)}, this build ${after.toFixed(0)} (${(after / before).toFixed(1)}×)`,
  );
  console.log(
    `  rounds: baseline ${rates.baseline.map((r) => r.toFixed(0)).join(', ')}; this build ${rates['this build'].map((r) => r.toFixed(0)).join(', ')}`,
  );
} finally {
  await cluster.stop();
}
