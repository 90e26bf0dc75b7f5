import { join } from 'node:path';
import pg from 'pg';
import { describe, expect } from 'vitest';
import { toolResultsOf } from '@replan/core';
import type { WorkerProcess } from './support/worker-process.js';
import { lines, useDbos } from './support/dbos-fixture.js';
import { GRAPH_INPUT } from './support/graph-input.js';

const RUNS = 40;
const LEASE_MS = 1_000;
/** Added to each tool call's own time: long enough that kills land while calls run. */
const TOOL_MS = 80;
/** Kills at most: on a loaded machine a worker's restart is slow, and the runs must still get done. */
const MAX_KILLS = 8;
const dbos = useDbos({ leaseMs: LEASE_MS });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

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

describe('DBOS runs with worker processes killed at random', () => {
  dbos.db.it(
    `${RUNS} graph runs on 3 worker processes, one SIGKILLed every ~1.4 s as it starts a tool call (up to 8 times) and replaced: all complete, finished work never repeats, no interleaved leases`,
    async () => {
      const killed = new Set<string>();
      let n = 0;
      const live = new Set<WorkerProcess>();
      const spawnWorker = () => {
        const w = dbos.worker({ label: `chaos-w${++n}`, app: 'e2e', latencyMs: 60, toolMs: TOOL_MS });
        live.add(w);
        void w.exited.then(() => live.delete(w));
        return w;
      };
      const ids = Array.from({ length: RUNS }, (_, i) => `chaos-${String(i).padStart(2, '0')}`);
      for (const sessionId of ids) await dbos.runs.start({ appName: 'e2e', userId: 'u1', sessionId, input: GRAPH_INPUT });
      await Promise.all([spawnWorker(), spawnWorker(), spawnWorker()].map((w) => w.ready));

      const results = Promise.all(ids.map((sessionId) => dbos.runs.result({ appName: 'e2e', userId: 'u1', sessionId })));
      let done = false;
      void results.finally(() => (done = true));
      /**
       * A live worker that has just started a tool call (its effect is logged as the call starts,
       * which then takes TOOL_MS more): killed now, the kill lands mid-call, so every test run
       * exercises the repeat rule below. Undefined when none starts one within half a second.
       */
      const workerInToolCall = async (): Promise<WorkerProcess | undefined> => {
        const effectsFile = join(dbos.workDir, 'effects.log');
        const seen = (await lines<Effect>(effectsFile)).length;
        for (const until = Date.now() + 500; Date.now() < until && !done; await sleep(5)) {
          const started = (await lines<Effect>(effectsFile)).slice(seen);
          const worker = [...live].find((w) => started.some((e) => e.label === w.label));
          if (worker) return worker;
        }
        return undefined;
      };
      /** What DBOS and the session log say of a run that did not complete (for the failure message). */
      const whyNot = async (sessionId: string) => {
        const pool = new pg.Pool({ connectionString: dbos.systemDatabaseUrl, max: 1 });
        try {
          const { rows } = await pool.query(
            'SELECT status, executor_id, recovery_attempts, error FROM dbos.workflow_status WHERE workflow_uuid LIKE $1',
            [`%${sessionId}%`],
          );
          const session = await dbos.store.get({ appName: 'e2e', userId: 'u1', id: sessionId });
          const tail = (session?.events ?? [])
            .slice(-4)
            .map((e) => String(e.meta?.kind ?? e.message?.role ?? (e.error ? `error ${e.error.name}` : '?')));
          return `DBOS ${JSON.stringify(rows)}; log tail ${tail.join(', ')}; killed ${[...killed].join(', ')}`;
        } finally {
          await pool.end();
        }
      };
      const deadline = Date.now() + 80_000;
      let kills = 0;
      while (!done && Date.now() < deadline && kills < MAX_KILLS) {
        await Promise.race([sleep(1_000 + Math.random() * 800), results]);
        if (done) break;
        const victim = (await workerInToolCall()) ?? [...live][Math.floor(Math.random() * live.size)];
        if (!victim) continue;
        killed.add(victim.label);
        kills++;
        victim.child.kill('SIGKILL');
        await victim.exited;
        spawnWorker();
      }
      const outcomes = await Promise.race([results, sleep(Math.max(0, deadline - Date.now())).then(() => undefined)]);
      expect(outcomes, 'every run finished within the time limit').toBeDefined();
      expect(killed.size, 'the test killed workers').toBeGreaterThanOrEqual(2);

      // Every run completed with the same answer as an uninterrupted one.
      const outputs = new Set(outcomes!.map((r) => `${r.status}: ${r.output}`));
      const failed = await Promise.all(
        outcomes!
          .filter((r) => r.status !== 'completed')
          .map(async (r) => `${r.sessionId} ${r.status}: ${r.error?.name} ${r.error?.message}; ${await whyNot(r.sessionId)}`),
      );
      expect(failed, 'every run completed').toEqual([]);
      expect([...outputs]).toHaveLength(1);
      expect([...outputs][0]).toMatch(/^completed: .*e: report on c and d/);

      const appends = (await lines<Append>(join(dbos.workDir, 'appends.log'))).filter((a) => a.session.startsWith('chaos-'));
      expect(appends.filter((a) => a.token === undefined || a.owner === undefined)).toEqual([]);
      const bySession = new Map<string, Append[]>();
      for (const a of appends) bySession.set(a.session, [...(bySession.get(a.session) ?? []), a]);
      /** The worker whose committed append stored the session's event at `index` (unknown if it died before logging it). */
      const storerOf = (session: string, index: number) => bySession.get(session)?.find((a) => a.from <= index && index < a.to)?.label;

      // Side effects: every stored tool call happened. Only a call in flight at a kill ran again:
      // each earlier run of it was in a killed worker, and its stored result is from its last run
      // (a later worker's), so no call whose result was stored before a kill ran again.
      const effects = await lines<Effect>(join(dbos.workDir, 'effects.log'));
      const byKey = new Map<string, string[]>();
      for (const e of effects) byKey.set(e.key, [...(byKey.get(e.key) ?? []), e.label]);
      let repeats = 0;
      let unknownStorer = 0;
      for (const id of ids) {
        const session = (await dbos.store.get({ appName: 'e2e', userId: 'u1', id }))!;
        const calls = session.events.flatMap((e, index) =>
          e.message?.role === 'tool' ? toolResultsOf(e.message).map((r) => ({ call: r.toolCallId, index })) : [],
        );
        expect(new Set(calls.map((c) => c.call)).size, `${id}: no tool result stored twice`).toBe(calls.length);
        expect(calls.length).toBe(7);
        for (const { call, index } of calls) {
          const key = `${id}:${call}`;
          const runs = byKey.get(key) ?? [];
          expect(runs.length, `${key} happened`).toBeGreaterThan(0);
          expect(new Set(runs).size, `${key} ran at most once per worker: ${runs.join(' → ')}`).toBe(runs.length);
          for (const label of runs.slice(0, -1))
            expect(killed.has(label), `${key} ran again after ${label}, which was not killed`).toBe(true);
          const storer = storerOf(id, index);
          if (storer === undefined) unknownStorer++;
          else expect(storer, `${key}: the stored result is from its last run (${runs.join(' → ')})`).toBe(runs.at(-1));
          if (runs.length > 1) repeats++;
        }
      }
      // A kill between a commit and its log line hides who stored it; that is rare.
      expect(unknownStorer, 'who stored each tool result is known').toBeLessThanOrEqual(killed.size);
      console.info(`dbos chaos: ${killed.size} kills, ${repeats} in-flight tool calls repeated by a later worker`);
      // Kills are aimed at workers that just started a tool call, so some calls ran again.
      expect(repeats, 'some kills landed while a tool call ran (so the repeat rule was exercised)').toBeGreaterThan(0);

      // Appends: along each session's versions, leases only move forward (no two interleave).
      let takeovers = 0;
      for (const [session, list] of bySession) {
        list.sort((a, b) => a.from - b.from);
        for (let i = 1; i < list.length; i++) {
          const [prev, cur] = [list[i - 1]!, list[i]!];
          expect(cur.from, `${session}: appends never overlap`).toBeGreaterThanOrEqual(prev.to);
          expect(cur.token, `${session}: an older lease appended after a newer one`).toBeGreaterThanOrEqual(prev.token!);
          if (cur.token === prev.token) expect(cur.owner).toBe(prev.owner);
          else expect(cur.owner, `${session}: token ${cur.token} is held by the worker that appended with it`).toBe(cur.label);
          if (cur.label !== prev.label) takeovers++;
        }
      }
      expect(takeovers, 'some sessions were taken over by another worker').toBeGreaterThan(0);
    },
    100_000,
  );
});
