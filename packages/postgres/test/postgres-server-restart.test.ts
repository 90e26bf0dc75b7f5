import { afterEach, beforeEach, describe, expect } from 'vitest';
import { z } from 'zod';
import { ReActAgent, Runner, SessionStoreError, tool, toolResultsOf, type AgentEvent, type SessionStore } from '@replan/core';
import { ScriptedModel, callTools } from '@replan/core/testing';
import { PostgresSessionStore } from '@replan/postgres';
import { useTestPostgres } from './support/use-test-postgres.js';

// Synchronous commit on: an acknowledged commit survives the server's crash (the property under test).
const db = useTestPostgres({ synchronousCommit: true });

let uncaught: unknown[] = [];
const onUncaught = (error: unknown) => uncaught.push(error);
beforeEach(() => {
  uncaught = [];
  process.prependListener('uncaughtException', onUncaught);
});
afterEach(() => {
  process.removeListener('uncaughtException', onUncaught);
});

const CALLS = 10;

describe('PostgresSessionStore when the server goes down mid-run and comes back', () => {
  db.it(
    'the run fails with a connection SessionStoreError; the same store and runner resume it to completion, nothing acknowledged lost',
    async () => {
      const store = new PostgresSessionStore({
        connectionString: db.connectionString,
        schema: db.freshSchema('restart'),
        maxConnections: 4,
      });
      const acknowledged: string[] = [];
      const acknowledgedResults = new Set<string>();
      let crashed: Promise<void> | undefined;
      // Records every event whose append was acknowledged; the 4th tool result brings the server down.
      const watched: SessionStore = {
        create: async (input, events) => {
          const s = await store.create(input, events);
          acknowledged.push(...(events ?? []).map((e) => e.id));
          return s;
        },
        get: (key) => store.get(key),
        list: (input) => store.list(input),
        delete: (key) => store.delete(key),
        async appendEvents(key, events, options) {
          const result = await store.appendEvents(key, events, options);
          acknowledged.push(...events.map((e) => e.id));
          for (const e of events) for (const r of toolResultsOf(e.message)) acknowledgedResults.add(r.toolCallId);
          if (acknowledgedResults.size === 4) crashed ??= db.crash();
          return result;
        },
      };
      const runs = new Map<string, number>();
      const work = tool({
        name: 'work',
        description: 'does a unit of work',
        parameters: z.object({ i: z.number() }),
        execute: ({ i }, ctx) => {
          runs.set(ctx.toolCallId, (runs.get(ctx.toolCallId) ?? 0) + 1);
          return `done ${i}`;
        },
      });
      // Decides from the request (not a call counter), so a resumed run asks for the next call.
      const model = new ScriptedModel({
        latencyMs: 40,
        respond: (request) => {
          const done = request.messages.filter((m) => m.role === 'tool').length;
          return done < CALLS ? callTools({ name: 'work', args: { i: done }, id: `c${done}` }) : 'all done';
        },
      });
      const runner = new Runner({
        agent: new ReActAgent({ name: 'worker', model, tools: [work], maxIterations: 50 }),
        appName: 'app',
        sessionStore: watched,
      });
      try {
        const first = await runner.run({ userId: 'u1', sessionId: 's', input: 'go' }).result();
        await crashed;
        expect(uncaught).toEqual([]);
        expect(first.status).toBe('failed');
        expect(first.error).toBeInstanceOf(SessionStoreError);
        expect((first.error as SessionStoreError).kind).toBe('connection');
        expect(first.error?.message).toMatch(/connection/);
        const before = new Set(acknowledgedResults);

        await db.restart();
        const resumed = await runner.resume({ userId: 'u1', sessionId: 's' }).result();
        expect(resumed.status).toBe('completed');
        expect(resumed.output).toBe('all done');
        expect(uncaught).toEqual([]);

        const session = await store.get({ appName: 'app', userId: 'u1', id: 's' });
        const stored = new Set(session?.events.map((e: AgentEvent) => e.id));
        expect(acknowledged.filter((id) => !stored.has(id))).toEqual([]);
        const results = session?.events.flatMap((e) => toolResultsOf(e.message).map((r) => r.toolCallId)) ?? [];
        expect(results).toEqual(Array.from({ length: CALLS }, (_, i) => `c${i}`));
        // A tool call whose result was acknowledged before the crash never ran again.
        expect([...before].filter((id) => runs.get(id) !== 1)).toEqual([]);
        expect(before.size).toBeGreaterThanOrEqual(4);
        expect(before.size).toBeLessThan(CALLS);
      } finally {
        await crashed?.catch(() => undefined);
        await store.close();
      }
    },
  );
});
