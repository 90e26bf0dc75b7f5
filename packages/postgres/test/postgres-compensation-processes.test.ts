import { join } from 'node:path';
import { describe, expect } from 'vitest';
import { PostgresSessionStore } from '@replan/postgres';
import { crashDuringCompensation } from '../../core/test/support/compensation-crash.js';
import { useTestPostgres } from './support/use-test-postgres.js';
import { processScratch } from '../../core/test/support/process-scratch.js';

const db = useTestPostgres();
const it = db.it;
const { children, dir: scratchDir } = processScratch();

describe('compensation across processes (PostgreSQL)', () => {
  it('a process killed during compensation is resumed in a new one: each compensation runs exactly once, in reverse order', async () => {
    const dir = await scratchDir('replan-pg-compensation-');
    const schema = db.freshSchema('comp');
    const { beforeKill, all, resumed, killed } = await crashDuringCompensation(
      ['pg', db.connectionString, schema],
      join(dir, 'notes.txt'),
      'trip',
      children,
    );
    expect(killed.signal).toBe('SIGKILL');
    expect(beforeKill).toEqual([
      'book flight',
      'book hotel',
      'book car',
      'cancel car car-c trip:c:compensate',
      'cancel hotel hotel-h trip:h:compensate',
    ]);
    expect(all).toEqual([...beforeKill, 'cancel flight flight-f trip:f:compensate']);
    expect(resumed).toMatchObject({ status: 'aborted', compensation: { skipped: [], notUndone: [] } });
    expect((resumed.compensation as { undone: { callId: string }[] }).undone.map((c) => c.callId)).toEqual(['c', 'h', 'f']);
    const store = new PostgresSessionStore({ connectionString: db.connectionString, schema });
    try {
      const session = await store.get({ appName: 'trips', userId: 'u', id: 'trip' });
      const results = session?.events.flatMap(
        (e) => e.message?.content.flatMap((b) => (b.type === 'tool_result' ? [b.toolCallId] : [])) ?? [],
      );
      expect(results).toEqual(['f', 'h', 'c', 'c:compensate', 'h:compensate', 'f:compensate']);
    } finally {
      await store.close();
    }
  }, 90_000);
});
