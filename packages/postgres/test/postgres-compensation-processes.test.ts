import type { ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect } from 'vitest';
import { PostgresSessionStore } from '@replan/postgres';
import { crashDuringCompensation } from '../../core/test/support/compensation-crash.js';
import { useTestPostgres } from './support/use-test-postgres.js';

const db = useTestPostgres();
const it = db.it;
const dirs: string[] = [];
const children: ChildProcess[] = [];
afterEach(async () => {
  for (const child of children.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

describe('compensation across processes (PostgreSQL)', () => {
  it('a process killed during compensation is resumed in a new one: each compensation runs exactly once, in reverse order', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'replan-pg-compensation-'));
    dirs.push(dir);
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
