import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect } from 'vitest';
import { toolResultsOf } from '@replan/core';
import { PostgresRunQueue, PostgresSessionStore } from '@replan/postgres';
import { useTestPostgres } from '../../../packages/postgres/test/support/use-test-postgres.js';
import { startWorker, type WorkerProcess } from './support/worker-process.js';
import { GRAPH } from '../child/graph-scenario.mjs';

const db = useTestPostgres();
const RUNS = 120;
const LEASE_MS = 1_000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const lines = async <T>(file: string): Promise<T[]> =>
  (await readFile(file, 'utf8').catch(() => ''))
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as T);

interface Effect {
  readonly key: string;
  readonly label: string;
}
interface Append {
  readonly session: string;
  readonly label: string;
  readonly owner?: string;
  readonly token?: number;
  readonly from: number;
  readonly to: number;
}

describe('PostgresRunQueue with worker processes killed at random', () => {
  db.it(
    `${RUNS} graph runs on 3 worker processes, one SIGKILLed every ~2 s and replaced: all complete, finished work never repeats, no interleaved leases`,
    async () => {
      const schema = db.freshSchema('chaos');
      const workDir = await mkdtemp(join(tmpdir(), 'replan-chaos-'));
      const queue = new PostgresRunQueue({ connectionString: db.connectionString, schema, maxConnections: 4 });
      const store = new PostgresSessionStore({ connectionString: db.connectionString, schema, maxConnections: 4 });
      const workers = new Set<WorkerProcess>();
      const killed = new Set<string>();
      let n = 0;
      const spawnWorker = () => {
        const w = startWorker({
          connectionString: db.connectionString,
          schema,
          workDir,
          label: `w${++n}`,
          leaseMs: LEASE_MS,
          latencyMs: 40,
          concurrency: 3,
        });
        workers.add(w);
        void w.exited.then(() => workers.delete(w));
        return w;
      };
      try {
        const ids = Array.from({ length: RUNS }, (_, i) => `run-${String(i).padStart(3, '0')}`);
        for (const sessionId of ids) await queue.submit({ appName: 'e2e', userId: 'u1', sessionId, input: GRAPH.input });
        await Promise.all([spawnWorker(), spawnWorker(), spawnWorker()].map((w) => w.ready));

        // Chaos: every 1.5–2.5 s a random worker dies mid-whatever and a new one takes its place.
        const results = Promise.all(ids.map((sessionId) => queue.waitFor({ appName: 'e2e', userId: 'u1', sessionId })));
        let done = false;
        void results.finally(() => (done = true));
        const deadline = Date.now() + 50_000;
        while (!done && Date.now() < deadline) {
          await Promise.race([sleep(1_500 + Math.random() * 1_000), results]);
          if (done) break;
          const victims = [...workers];
          const victim = victims[Math.floor(Math.random() * victims.length)];
          if (!victim) continue;
          killed.add(victim.label);
          victim.child.kill('SIGKILL');
          await victim.exited;
          spawnWorker();
        }
        const outcomes = await Promise.race([results, sleep(Math.max(0, deadline - Date.now())).then(() => undefined)]);
        expect(outcomes, 'every run finished within the time limit').toBeDefined();
        expect(killed.size, 'the test killed workers').toBeGreaterThanOrEqual(2);

        // Every run completed with the same answer as an uninterrupted one.
        const outputs = new Set(outcomes!.map((r) => `${r.status}: ${r.output}`));
        expect([...outputs]).toHaveLength(1);
        expect([...outputs][0]).toMatch(/^completed: .*e: report on c and d/);

        // Side effects: every stored tool call's happened; a repeat only after its earlier runs' process was killed.
        const effects = await lines<Effect>(join(workDir, 'effects.log'));
        const byKey = new Map<string, string[]>();
        for (const e of effects) byKey.set(e.key, [...(byKey.get(e.key) ?? []), e.label]);
        for (const id of ids) {
          const session = (await store.get({ appName: 'e2e', userId: 'u1', id }))!;
          const calls = session.events.flatMap((e) =>
            e.message?.role === 'tool' ? toolResultsOf(e.message).map((r) => r.toolCallId) : [],
          );
          expect(new Set(calls).size, `${id}: no tool result stored twice`).toBe(calls.length);
          expect(calls.length).toBe(7);
          for (const call of calls) expect(byKey.get(`${id}:${call}`), `${id}:${call} happened`).toBeDefined();
        }
        const repeats = [...byKey].filter(([, labels]) => labels.length > 1);
        for (const [key, labels] of repeats)
          for (const label of labels.slice(0, -1))
            expect(killed.has(label), `${key} ran twice, first in ${label} which was not killed`).toBe(true);
        console.info(
          `chaos: ${killed.size} kills, ${repeats.length} tool calls repeated after a kill: ${repeats.map(([k]) => k).join(', ') || 'none'}`,
        );

        // Appends: along each session's versions, leases only move forward (no two interleave).
        const appends = await lines<Append>(join(workDir, 'appends.log'));
        // With session leases (a store that has them), every append carried its run's lease.
        const leased = typeof (store as { acquireLease?: unknown }).acquireLease === 'function';
        if (leased) expect(appends.filter((a) => a.token === undefined || a.owner === undefined)).toEqual([]);
        const bySession = new Map<string, Append[]>();
        for (const a of appends) bySession.set(a.session, [...(bySession.get(a.session) ?? []), a]);
        let takeovers = 0;
        for (const [session, list] of bySession) {
          list.sort((a, b) => a.from - b.from);
          for (let i = 1; i < list.length; i++) {
            const [prev, cur] = [list[i - 1]!, list[i]!];
            expect(cur.from, `${session}: appends never overlap`).toBeGreaterThanOrEqual(prev.to);
            if (leased) {
              expect(cur.token, `${session}: an older lease appended after a newer one`).toBeGreaterThanOrEqual(prev.token!);
              if (cur.token === prev.token) expect(cur.owner).toBe(prev.owner);
              else expect(cur.owner, `${session}: token ${cur.token} is held by the worker that appended with it`).toBe(cur.label);
            } else {
              // Without leases, the best evidence: a worker that handed over never appends again.
              const later = list.slice(i).some((a) => a.label === prev.label);
              expect(cur.label === prev.label || !later, `${session}: ${prev.label} appended again after ${cur.label}`).toBe(true);
            }
            if (cur.label !== prev.label) takeovers++;
          }
        }
        expect(takeovers, 'some sessions were taken over by another worker').toBeGreaterThan(0);
      } finally {
        for (const w of workers) w.child.kill('SIGKILL');
        await Promise.all([...workers].map((w) => w.exited));
        await queue.close();
        await store.close();
        await rm(workDir, { recursive: true, force: true });
      }
    },
    90_000,
  );
});
