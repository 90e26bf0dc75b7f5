import { InMemorySessionStore } from '@replan/core';
import { describe, expect, it } from 'vitest';
import { INNER_CALLS, PROGRAM_CHARS } from '../src/view/code-call-view.js';
import { eventRow, eventView } from '../src/view/event-views.js';
import { storedBreakdown, storedToolCalls } from '../src/view/step-usage.js';
import { renderSession } from '../src/cli/print-session.js';
import { CODE_PROGRAM, codeStepScenario } from './support/code-step-scenario.js';

async function codeStepSession() {
  const store = new InMemorySessionStore();
  const runner = codeStepScenario(store);
  const result = await runner.run({ userId: 'ana', sessionId: 'inv', input: 'Flag the large invoices.' }).result();
  expect(result.status, result.error?.message).toBe('completed');
  expect(result.output).toBe('Flagged: INV-2');
  const events = (await store.get({ appName: runner.appName, userId: 'ana', id: 'inv' }))?.events ?? [];
  const at = events.findIndex((e) => e.message?.content.some((b) => b.type === 'tool_call' && b.name === 'run_code'));
  expect(at).toBeGreaterThan(0);
  return { events, at };
}

describe('a code step in the studio views', () => {
  it("the code call's detail carries its program and the calls it made, in order, with their results", async () => {
    const { events, at } = await codeStepSession();
    const view = eventView(events[at]!, at, events);
    const block = view.blocks.find((b) => b.type === 'tool_call');
    expect(block).toMatchObject({ type: 'tool_call', name: 'run_code', program: CODE_PROGRAM });
    expect(block && 'programCut' in block).toBe(false);
    const id = block?.type === 'tool_call' ? block.id : '';
    expect(view.innerCalls?.map((c) => [c.index, c.id, c.name, c.args, c.output, c.isError])).toEqual([
      [0, `${id}#0`, 'fetch_invoice', '{"id":"INV-1"}', '{"id":"INV-1","total":120,"note":"ok"}', false],
      [1, `${id}#1`, 'fetch_invoice', '{"id":"INV-2"}', expect.stringContaining('"total":940'), false],
      [2, `${id}#2`, 'flag_invoice', '{"id":"INV-2"}', '{"flagged":"INV-2"}', false],
      [3, `${id}#3`, 'fetch_invoice', '{"id":"INV-3"}', '{"id":"INV-3","total":75,"note":"ok"}', false],
    ]);
    // Each links to its own event, stored after the code call and before its result.
    const result = events.findIndex((e) => e.message?.content.some((b) => b.type === 'tool_result' && b.name === 'run_code'));
    for (const call of view.innerCalls ?? []) {
      expect(call.eventIndex).toBeGreaterThan(at);
      expect(call.eventIndex).toBeLessThan(result);
      expect(events[call.eventIndex]?.meta?.codeCall).toEqual({ id, index: call.index });
    }
  });

  it("inner calls' timeline rows sit one level below the code call, numbered; their detail names the code call", async () => {
    const { events, at } = await codeStepSession();
    const outer = eventRow(events[at]!, at, events);
    const inner = events.flatMap((e, i) => (e.meta?.codeCall ? [eventRow(e, i, events)] : []));
    expect(inner).toHaveLength(8); // four calls, each a call and a result
    for (const row of inner) {
      expect(row.depth).toBe(outer.depth + 1);
      expect(row.summary).toMatch(/^#\d /);
    }
    expect(inner.map((r) => r.summary.split(' ')[0])).toEqual(['#0', '#0', '#1', '#1', '#2', '#2', '#3', '#3']);
    expect(outer.codeCall).toBeUndefined();
    const first = events.findIndex((e) => e.meta?.codeCall);
    expect(eventView(events[first]!, first, events).codeCall).toEqual(events[first]?.meta?.codeCall);
  });

  it("the stored breakdown counts the inner calls in the code call's step and agent", async () => {
    const { events, at } = await codeStepSession();
    const breakdown = storedBreakdown(events);
    // The code call and its four inner calls.
    expect(breakdown.byLabel['1']?.toolCalls).toBe(5);
    expect(breakdown.byAgent[events[at]!.path]?.toolCalls).toBe(5);
    expect(storedToolCalls(events)).toBe(5);
  });

  it('`replan show` prints the stored code step as the live tree does: program, inner calls nested, tool calls per step', async () => {
    const store = new InMemorySessionStore();
    const runner = codeStepScenario(store);
    await runner.run({ userId: 'ana', sessionId: 'inv', input: 'Flag the large invoices.' }).result();
    const session = await store.get({ appName: runner.appName, userId: 'ana', id: 'inv' });
    if (!session) throw new Error('no session');
    const parts: string[] = [];
    await renderSession(session, (t) => parts.push(t));
    const lines = parts.join('').split('\n');
    const at = lines.indexOf('│  ├─ code run_code (a program of 7 lines)');
    expect(at, lines.join('\n')).toBeGreaterThan(0);
    expect(lines.filter((l) => l.startsWith('│  │  ├─ #'))).toEqual([
      '│  │  ├─ #0 tool fetch_invoice {"id":"INV-1"}',
      '│  │  ├─ #0 returned {"id":"INV-1","total":120,"note":"ok"}',
      '│  │  ├─ #1 tool fetch_invoice {"id":"INV-2"}',
      expect.stringMatching(/^│ {2}│ {2}├─ #1 returned \{"id":"INV-2","total":940,"note":"<img src=x/),
      '│  │  ├─ #2 tool flag_invoice {"id":"INV-2"}',
      '│  │  ├─ #2 returned {"flagged":"INV-2"}',
      '│  │  ├─ #3 tool fetch_invoice {"id":"INV-3"}',
      '│  │  ├─ #3 returned {"id":"INV-3","total":75,"note":"ok"}',
    ]);
    expect(lines).toContainEqual(expect.stringMatching(/^ {2}Step 1 {2}2 calls · .* · 5 tool calls$/));
  });

  it('bounds a huge program and a program with thousands of calls', async () => {
    const { events, at } = await codeStepSession();
    const code = events[at]!;
    const block = code.message?.content.find((b) => b.type === 'tool_call');
    if (block?.type !== 'tool_call') throw new Error('no code call');
    const huge = {
      ...code,
      message: { role: 'assistant' as const, content: [{ ...block, args: { program: 'x'.repeat(PROGRAM_CHARS + 123) } }] },
    };
    const many = Array.from({ length: INNER_CALLS + 7 }, (_, n) => ({
      ...code,
      id: `inner-${n}`,
      meta: { codeCall: { id: block.id, index: n } },
      message: {
        role: 'assistant' as const,
        content: [{ type: 'tool_call' as const, id: `${block.id}#${n}`, name: 'fetch_invoice', args: { id: 'y'.repeat(5000) } }],
      },
    }));
    const view = eventView(huge, 0, [huge, ...many]);
    const shown = view.blocks[0];
    expect(shown?.type === 'tool_call' && shown.program?.length).toBe(PROGRAM_CHARS);
    expect(shown?.type === 'tool_call' && shown.programCut).toBe(123);
    expect(view.innerCalls).toHaveLength(INNER_CALLS);
    expect(view.innerCallsCut).toBe(7);
    expect(view.innerCalls?.[0]?.args.length).toBeLessThanOrEqual(300);
    expect(view.innerCalls?.[0]?.output).toBeUndefined(); // no result stored yet
  });
});
