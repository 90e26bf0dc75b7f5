import { InMemorySessionStore, ReActAgent, Runner, tool } from '@replan/core';
import { ScriptedModel, callTools } from '@replan/core/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { eventRow, eventView } from '../src/view/event-views.js';

describe('a compensation in the studio views', () => {
  it('shows as a "compensation" row with the call undone and what the compensation returned', async () => {
    const store = new InMemorySessionStore();
    const book = tool({
      name: 'book_flight',
      description: 'Books a flight.',
      parameters: z.object({ to: z.string() }),
      execute: ({ to }) => ({ ref: `F-${to}` }),
      compensate: (_args, result) => ({ cancelled: (result as { ref: string }).ref }),
    });
    const model = new ScriptedModel({ responses: [callTools({ name: 'book_flight', id: 'f1', args: { to: 'LIS' } })] });
    const runner = new Runner({ agent: new ReActAgent({ name: 'travel', model, tools: [book] }), appName: 'trips', sessionStore: store });
    // The flight is booked, then the run fails (the model's script has nothing more); cancelling it undoes the booking.
    expect((await runner.run({ userId: 'u', sessionId: 's', input: 'fly me' }).result()).status).toBe('failed');
    const cancelled = await runner.cancel({ userId: 'u', sessionId: 's', compensate: true }).result();
    expect(cancelled.compensation?.undone).toEqual([{ callId: 'f1', tool: 'book_flight' }]);
    const events = (await store.get({ appName: 'trips', userId: 'u', id: 's' }))?.events ?? [];
    const at = events.flatMap((e, i) => (e.meta?.kind === 'compensation' ? [i] : []));
    const rows = at.map((i) => eventRow(events[i]!, i, events));
    expect(rows.map((r) => [r.kind, r.summary])).toEqual([
      ['compensation', 'book_flight({ "to": "LIS" })'],
      ['compensation', 'book_flight → { "cancelled": "F-LIS" }'],
    ]);
    expect(eventView(events[at[0]!]!, at[0]!, events).blocks).toEqual([
      { type: 'tool_call', id: 'f1:compensate', name: 'book_flight', args: '{\n  "to": "LIS"\n}' },
    ]);
  });
});
