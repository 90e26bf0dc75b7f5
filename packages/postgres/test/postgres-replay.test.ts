import { describe, expect } from 'vitest';
import { z } from 'zod';
import { ReActAgent, Runner, tool, type Tool } from '@replan/core';
import { ReplayModel, ScriptedModel, callTools, replayTools } from '@replan/core/testing';
import { PostgresSessionStore } from '@replan/postgres';
import { useTestPostgres } from './support/use-test-postgres.js';

const db = useTestPostgres();

describe('a run stored in PostgreSQL replays offline', () => {
  db.it('a session read back from PostgreSQL replays strictly to the same answer, without running the tool', async () => {
    const booked: string[] = [];
    const book = tool({
      name: 'book',
      description: 'books a room',
      parameters: z.object({ zone: z.string(), city: z.string(), nights: z.number(), a: z.boolean() }),
      execute: ({ city, nights }) => {
        booked.push(city);
        return { ok: true, reference: `R-${city}`, details: { nights, zone: 'x', city } };
      },
    });
    const agent = (model: ScriptedModel | ReplayModel, tools: readonly Tool[]) =>
      new ReActAgent({ name: 'booker', model, tools, instruction: 'Book it.' });
    const store = new PostgresSessionStore({ connectionString: db.connectionString, schema: db.freshSchema('replay') });
    try {
      const model = new ScriptedModel({
        responses: [callTools({ name: 'book', args: { zone: 'centre', city: 'Porto', nights: 2, a: true } }), 'Booked R-Porto.'],
      });
      const recorded = await new Runner({ agent: agent(model, [book]), appName: 'trips', sessionStore: store })
        .run({ userId: 'u', input: 'book Porto' })
        .result();
      expect(recorded.status).toBe('completed');
      const session = await store.get({ appName: 'trips', userId: 'u', id: recorded.sessionId });
      if (!session) throw new Error('no stored session');
      const replay = ReplayModel.fromSession(session);
      const again = await new Runner({ agent: agent(replay, replayTools(session, [book])), appName: 'trips' })
        .run({ userId: 'u', input: 'book Porto' })
        .result();
      expect(again.status, again.error?.message).toBe('completed');
      expect(again.output).toBe('Booked R-Porto.');
      expect(booked).toEqual(['Porto']); // only the recording ran the tool
      expect(replay.finished).toBe(true);
    } finally {
      await store.close();
    }
  });
});
