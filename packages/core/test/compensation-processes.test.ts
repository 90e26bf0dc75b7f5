import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FileSessionStore } from '@replan/core';
import { crashDuringCompensation } from './support/compensation-crash.js';
import { processScratch } from './support/process-scratch.js';

const { children, dir: scratchDir } = processScratch();

describe('compensation across processes (file store)', () => {
  it('a process killed during compensation is resumed in a new one: each compensation runs exactly once, in reverse order', async () => {
    const dir = await scratchDir('replan-compensation-procs-');
    const { beforeKill, all, resumed, killed } = await crashDuringCompensation(
      ['file', dir, '-'],
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
    expect(resumed).toEqual({
      status: 'aborted',
      compensation: {
        undone: [
          { callId: 'c', tool: 'book_car' },
          { callId: 'h', tool: 'book_hotel' },
          { callId: 'f', tool: 'book_flight' },
        ],
        skipped: [],
        notUndone: [],
      },
    });
    // The log holds each compensation's call and result once.
    const store = new FileSessionStore({ dir });
    const session = await store.get({ appName: 'trips', userId: 'u', id: 'trip' });
    const ids = (type: 'tool_call' | 'tool_result') =>
      session?.events.flatMap(
        (e) => e.message?.content.flatMap((b) => (b.type === type ? [b.type === 'tool_call' ? b.id : b.toolCallId] : [])) ?? [],
      );
    expect(ids('tool_call')).toEqual(['f', 'h', 'c', 'c:compensate', 'h:compensate', 'f:compensate']);
    expect(ids('tool_result')).toEqual(['f', 'h', 'c', 'c:compensate', 'h:compensate', 'f:compensate']);
    await store.close();
  }, 60_000);
});
