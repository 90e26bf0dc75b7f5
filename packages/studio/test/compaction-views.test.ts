import { InMemorySessionStore } from '@replan/core';
import { describe, expect, it } from 'vitest';
import { eventRow, eventView } from '../src/view/event-views.js';
import { compactionScenario } from './support/compaction-scenario.js';

describe('a compaction in the studio views', () => {
  it('the timeline row says how many turns it summarised, the tokens before and after and the summarizer usage; the detail has the summary', async () => {
    const store = new InMemorySessionStore();
    const runner = compactionScenario(store);
    const result = await runner.run({ userId: 'ana', sessionId: 'reports', input: 'Collect the readings.' }).result();
    expect(result.status, result.error?.message).toBe('completed');
    const session = await store.get({ appName: runner.appName, userId: 'ana', id: 'reports' });
    const events = session?.events ?? [];
    const at = events.flatMap((e, i) => (e.actions?.compaction ? [i] : []));
    expect(at.length).toBeGreaterThan(1);
    const rows = at.map((i) => eventRow(events[i]!, i, events));
    // The executor's model answers (one per fetched report) the summaries replaced, each counted once.
    const turns = rows.map((r) => Number(/summarised (\d+) turn/.exec(r.summary)?.[1]));
    expect(turns.every((t) => t >= 1)).toBe(true);
    // The first summary replaced every executor answer up to the event it covers.
    const through = events.findIndex((e) => e.id === events[at[0]!]!.actions!.compaction!.through);
    const answered = events.slice(0, through + 1).filter((e) => e.path === events[at[0]!]!.path && e.message?.role === 'assistant');
    expect(turns[0]).toBe(answered.length);
    const executorAnswers = events.filter((e) => e.path === events[at[0]!]!.path && e.message?.role === 'assistant').length;
    expect(turns.reduce((a, b) => a + b, 0)).toBeLessThan(executorAnswers);
    for (const [n, row] of rows.entries()) {
      const record = events[at[n]!]!.actions!.compaction!;
      expect(row.kind).toBe('compaction');
      expect(row.summary).toBe(
        `summarised ${turns[n]} turns · context ~${record.tokensBefore.toLocaleString('en')} → ~${record.tokensAfter.toLocaleString('en')} tokens · summarizer 3,200 in / 60 out`,
      );
    }
    const view = eventView(events[at[0]!]!, at[0]!, events);
    expect(view.compaction?.summary).toContain('READING-1: station 1 measured 3 mm');
    expect(view.tokens).toMatchObject({ input: 3200, output: 60 });
  });
});
