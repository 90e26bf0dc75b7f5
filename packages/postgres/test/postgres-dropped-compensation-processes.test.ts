import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect } from 'vitest';
import { PostgresSessionStore } from '@replan/postgres';
import { crashDuringCompensation } from '../../core/test/support/compensation-crash.js';
import { useTestPostgres } from './support/use-test-postgres.js';
import { processScratch } from '../../core/test/support/process-scratch.js';

const droppedStepProcess = fileURLToPath(new URL('../../planexecute/test/support/dropped-compensation-process.ts', import.meta.url));
const db = useTestPostgres();
const it = db.it;
const { children, dir: scratchDir } = processScratch();

describe('a dropped step undone across processes (PostgreSQL)', () => {
  it('a process killed while the replan undoes a failed step is resumed in a new one: each compensation once, no second replan', async () => {
    const dir = await scratchDir('replan-pg-dropped-');
    const schema = db.freshSchema('dropped');
    const { beforeKill, all, resumed, killed } = await crashDuringCompensation(
      ['pg', db.connectionString, schema],
      join(dir, 'notes.txt'),
      'trip',
      children,
      droppedStepProcess,
    );
    expect(killed.signal).toBe('SIGKILL');
    expect(beforeKill).toEqual(['plan', 'book flight', 'book hotel', 'replan', 'cancel hotel hotel-h trip:h:compensate']);
    expect(all).toEqual([...beforeKill, 'cancel flight flight-f trip:f:compensate']);
    expect(resumed).toEqual({ status: 'completed', output: 'nothing booked' });
    const store = new PostgresSessionStore({ connectionString: db.connectionString, schema });
    try {
      const session = await store.get({ appName: 'trips', userId: 'u', id: 'trip' });
      const compensations = session?.events.flatMap(
        (e) =>
          e.message?.content.flatMap((b) => (b.type === 'tool_result' && b.toolCallId.endsWith(':compensate') ? [b.toolCallId] : [])) ?? [],
      );
      expect(compensations).toEqual(['h:compensate', 'f:compensate']);
    } finally {
      await store.close();
    }
  }, 90_000);
});
