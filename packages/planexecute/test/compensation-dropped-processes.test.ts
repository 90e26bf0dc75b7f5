import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { FileSessionStore } from '@replan/core';
import { crashDuringCompensation } from '../../core/test/support/compensation-crash.js';
import { processScratch } from '../../core/test/support/process-scratch.js';

/** The plan–execute process (compensateDropped) the crash runs: see its header. */
const droppedStepProcess = fileURLToPath(new URL('./support/dropped-compensation-process.ts', import.meta.url));

const { children, dir: scratchDir } = processScratch();

describe('a dropped step undone across processes (file store)', () => {
  it('a process killed while the replan undoes a failed step is resumed in a new one: each compensation once, no second replan, the answer after them', async () => {
    const dir = await scratchDir('replan-dropped-procs-');
    const { beforeKill, all, resumed, killed } = await crashDuringCompensation(
      ['file', dir, '-'],
      join(dir, 'notes.txt'),
      'trip',
      children,
      droppedStepProcess,
    );
    expect(killed.signal).toBe('SIGKILL');
    expect(beforeKill).toEqual(['plan', 'book flight', 'book hotel', 'replan', 'cancel hotel hotel-h trip:h:compensate']);
    // The resumed process plans nothing, runs no step and asks no replanner again: it undoes what is left and answers.
    expect(all).toEqual([...beforeKill, 'cancel flight flight-f trip:f:compensate']);
    expect(resumed).toEqual({ status: 'completed', output: 'nothing booked' });
    const store = new FileSessionStore({ dir });
    const session = await store.get({ appName: 'trips', userId: 'u', id: 'trip' });
    const results = session?.events.flatMap(
      (e) =>
        e.message?.content.flatMap((b) =>
          b.type === 'tool_result' && ['f', 'h'].includes(b.toolCallId.split(':')[0] as string) ? [b.toolCallId] : [],
        ) ?? [],
    );
    expect(results).toEqual(['f', 'h', 'h:compensate', 'f:compensate']);
    await store.close();
  }, 60_000);
});
