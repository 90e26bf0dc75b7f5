import { PostgresSessionStore } from '@replan/postgres';
import { describe, expect } from 'vitest';
import { useTestPostgres } from '../../postgres/test/support/use-test-postgres.js';
import { resumeUIMessageStream } from '../src/index.js';
import { collect, gate, readMessage, tripRunner } from './support/trip-run.js';

const db = useTestPostgres();
const user = { userId: 'ana', sessionId: 'trip-1' };
const key = { appName: 'trips', userId: user.userId, id: user.sessionId };

describe('resumeUIMessageStream on PostgreSQL', () => {
  db.it("follows a run written by another store instance (another process's pool), woken by LISTEN/NOTIFY", async () => {
    const schema = db.freshSchema('resume');
    // The writer NOTIFYs each commit; the reader shares nothing with it but the database.
    const writer = new PostgresSessionStore({ connectionString: db.connectionString, schema, notifyAppends: true });
    const reader = new PostgresSessionStore({ connectionString: db.connectionString, schema });
    try {
      await writer.migrate();
      const hold = gate();
      const { runner } = tripRunner({ store: writer, hold: hold.opened });
      // Not streamed: no live stream of this process announces the run's events either.
      const run = runner.run({ ...user, input: 'Book' });
      // Resumed once the run is under way (its search call stored, the search held): a session that
      // exists but whose run has not taken its lease yet would read as a finished run.
      const searching = async () =>
        (await reader.get(key))?.events.some((e) => e.message?.content.some((b) => b.type === 'tool_call')) ?? false;
      while (!(await searching())) await new Promise((r) => setTimeout(r, 10));
      // The poll is ten minutes and the test's limit one: only the writer's notifications can finish it.
      const resumed = collect(resumeUIMessageStream({ store: reader, appName: 'trips', ...user, pollMs: 600_000 }));
      hold.open();
      const result = await run.result();
      expect(result.status).toBe('interrupted');
      const chunks = await resumed;
      // It followed the run past the search (held until it had started) to the approval request, and ended.
      expect(chunks.some((c) => c.chunk.type === 'tool-output-available')).toBe(true);
      expect(chunks.some((c) => c.chunk.type === 'tool-approval-request')).toBe(true);
      expect(chunks.at(-1)?.chunk).toEqual({ type: 'finish' });
      // The same message a reload would get from the complete log.
      const replay = await collect(resumeUIMessageStream({ store: reader, appName: 'trips', ...user }));
      expect(await readMessage(chunks.map((c) => c.chunk))).toEqual(await readMessage(replay.map((c) => c.chunk)));
    } finally {
      await reader.close();
      await writer.close();
    }
  });
});
