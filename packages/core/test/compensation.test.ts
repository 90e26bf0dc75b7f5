import { describe, expect, it } from 'vitest';
import { CompensationError, InMemorySessionStore, ReActAgent, Runner, SessionNotFoundError, tool } from '@replan/core';
import { ScriptedModel, callTools } from '@replan/core/testing';
import { z } from 'zod';
import { bookingLog, bookingTool, lookupTool, type BookingLog } from './support/bookings.js';

/**
 * Books flight, then hotel (and looks something up in between), then its third model call waits for
 * `gate`; `waiting` resolves once it does (every earlier result is then in the live log).
 */
function trip(log: BookingLog, gate: Promise<void>, extra: { approval?: boolean } = {}) {
  let reached!: () => void;
  const waiting = new Promise<void>((resolve) => {
    reached = resolve;
  });
  const model = new ScriptedModel({
    respond: async (_request, call) => {
      if (call === 0)
        return callTools({ name: 'book_flight', id: 'f1', args: { what: 'LHR-JFK' } }, { name: 'lookup', id: 'l1', args: { q: 'x' } });
      if (call === 1) return callTools({ name: 'book_hotel', id: 'h1', args: { what: 'Plaza' } });
      if (call === 2 && extra.approval) return callTools({ name: 'pay', id: 'p1', args: {} });
      reached();
      await gate;
      return 'all booked';
    },
  });
  const pay = tool({
    name: 'pay',
    description: 'Pays.',
    parameters: z.object({}),
    needsApproval: true,
    execute: () => 'paid',
    compensate: () => 'refunded',
  });
  const agent = new ReActAgent({
    name: 'travel',
    model,
    tools: [bookingTool('flight', log), bookingTool('hotel', log), lookupTool, ...(extra.approval ? [pay] : [])],
  });
  return { agent, model, waiting };
}

const never = new Promise<void>(() => undefined);
/** Waits until the log has `n` lines. */
async function lines(log: BookingLog, n: number) {
  while (log.lines.length < n) await new Promise((r) => setTimeout(r, 2));
}

describe('compensation', () => {
  it('run.abort({ compensate: true }) undoes the finished calls in reverse order, each a stored <id>:compensate call', async () => {
    const log = bookingLog();
    const store = new InMemorySessionStore();
    const { agent, waiting } = trip(log, never);
    const runner = new Runner({ agent, appName: 'trips', sessionStore: store });
    const run = runner.run({ userId: 'u', sessionId: 's', input: 'book a trip' });
    await waiting; // the hotel's result stored, the next model call waiting
    run.abort({ compensate: true });
    const result = await run.result();
    expect(result.status).toBe('aborted');
    expect(log.lines).toEqual([
      'book flight LHR-JFK',
      'book hotel Plaza',
      'cancel hotel Plaza hotel-h1 key=s:h1:compensate',
      'cancel flight LHR-JFK flight-f1 key=s:f1:compensate',
    ]);
    expect(result.compensation).toEqual({
      undone: [
        { callId: 'h1', tool: 'book_hotel' },
        { callId: 'f1', tool: 'book_flight' },
      ],
      skipped: [],
      notUndone: [],
    });
    const session = await store.get({ appName: 'trips', userId: 'u', id: 's' });
    const results = session?.events.flatMap((e) => e.message?.content.filter((b) => b.type === 'tool_result') ?? []) ?? [];
    // (flight and lookup ran side by side: their order varies)
    expect(results.slice(2).map((b) => b.type === 'tool_result' && [b.toolCallId, b.output])).toEqual([
      ['h1', { ref: 'hotel-h1' }],
      ['h1:compensate', { cancelled: 'hotel-h1' }],
      ['f1:compensate', { cancelled: 'flight-f1' }],
    ]);
    // Closed for good: resuming runs nothing, not even a compensation, and reports the same.
    const again = await runner.resume({ userId: 'u', sessionId: 's' }).result();
    expect(again.status).toBe('aborted');
    expect(again.compensation).toEqual(result.compensation);
    expect(log.lines).toHaveLength(4);
  });

  it('run.abort(reason) still only stops: nothing undone, the session resumable', async () => {
    const log = bookingLog();
    let open!: () => void;
    const gate = new Promise<void>((r) => (open = r));
    const { agent, waiting } = trip(log, gate);
    const runner = new Runner({ agent, appName: 'trips' });
    const run = runner.run({ userId: 'u', sessionId: 's', input: 'book a trip' });
    await waiting;
    run.abort('user left');
    const result = await run.result();
    expect(result.status).toBe('aborted');
    expect(result.compensation).toBeUndefined();
    open();
    const resumed = await runner.resume({ userId: 'u', sessionId: 's' }).result();
    expect(resumed.status).toBe('completed');
    expect(log.lines).toEqual(['book flight LHR-JFK', 'book hotel Plaza']);
  });

  it('runner.cancel with compensate aborts a run going on in this process and undoes it', async () => {
    const log = bookingLog();
    const { agent, waiting } = trip(log, never);
    const runner = new Runner({ agent, appName: 'trips' });
    const run = runner.run({ userId: 'u', sessionId: 's', input: 'book a trip' });
    await waiting;
    const cancelled = await runner.cancel({ userId: 'u', sessionId: 's', compensate: true }).result();
    expect(cancelled.status).toBe('aborted');
    expect((await run.result()).compensation?.undone.map((c) => c.callId)).toEqual(['h1', 'f1']);
    expect(log.lines.slice(2).map((l) => l.split(' ').slice(0, 2).join(' '))).toEqual(['cancel hotel', 'cancel flight']);
  });

  it('runner.cancel with compensate undoes a stopped (interrupted) session; the call waiting for approval is skipped and reported', async () => {
    const log = bookingLog();
    const runner = new Runner({ agent: trip(log, never, { approval: true }).agent, appName: 'trips' });
    const first = await runner.run({ userId: 'u', sessionId: 's', input: 'book a trip' }).result();
    expect(first.status).toBe('interrupted');
    const cancelled = await runner.cancel({ userId: 'u', sessionId: 's', compensate: true }).result();
    expect(cancelled.status).toBe('aborted');
    expect(cancelled.compensation).toEqual({
      undone: [
        { callId: 'h1', tool: 'book_hotel' },
        { callId: 'f1', tool: 'book_flight' },
      ],
      skipped: [{ callId: 'p1', tool: 'pay' }],
      notUndone: [],
    });
    // Closed: a resume with the approval runs nothing.
    const resumed = await runner.resume({ userId: 'u', sessionId: 's' }).result();
    expect(resumed.status).toBe('aborted');
    expect(log.lines).toHaveLength(4);
  });

  it('runner.cancel without compensate closes the invocation for good and undoes nothing', async () => {
    const log = bookingLog();
    const runner = new Runner({ agent: trip(log, never, { approval: true }).agent, appName: 'trips' });
    await runner.run({ userId: 'u', sessionId: 's', input: 'book a trip' }).result();
    const cancelled = await runner.cancel({ userId: 'u', sessionId: 's' }).result();
    expect(cancelled.status).toBe('aborted');
    expect(cancelled.compensation).toBeUndefined();
    expect((await runner.resume({ userId: 'u', sessionId: 's', approvals: { 'p1:approval': true } }).result()).status).toBe('aborted');
    expect(log.lines).toHaveLength(2);
  });

  it('a failing compensation stops undoing: CompensationError lists what was and was not undone, nothing is retried', async () => {
    const log = bookingLog();
    log.failing.add('hotel');
    const runner = new Runner({ agent: trip(log, never, { approval: true }).agent, appName: 'trips' });
    await runner.run({ userId: 'u', sessionId: 's', input: 'book a trip' }).result();
    const result = await runner.cancel({ userId: 'u', sessionId: 's', compensate: true }).result();
    expect(result.status).toBe('failed');
    expect(result.error).toBeInstanceOf(CompensationError);
    const error = result.error as CompensationError;
    expect(error.failed).toEqual({ callId: 'h1', tool: 'book_hotel', error: 'the hotel desk is closed' });
    expect(error.undone).toEqual([]);
    expect(error.notUndone).toEqual([
      { callId: 'h1', tool: 'book_hotel' },
      { callId: 'f1', tool: 'book_flight' },
    ]);
    expect(error.skipped).toEqual([{ callId: 'p1', tool: 'pay' }]);
    expect(error.message).toMatch(/Undo the calls not undone by hand/);
    // Neither a resume nor another cancel runs a compensation again.
    log.failing.delete('hotel');
    expect((await runner.resume({ userId: 'u', sessionId: 's' }).result()).status).toBe('failed');
    const again = await runner.cancel({ userId: 'u', sessionId: 's', compensate: true }).result();
    expect(again.status).toBe('failed');
    expect(again.compensation?.notUndone.map((c) => c.callId)).toEqual(['h1', 'f1']);
    expect(log.lines.filter((l) => l.startsWith('cancel'))).toHaveLength(1);
  });

  it('a call whose result was never stored is skipped and reported, not compensated', async () => {
    const log = bookingLog();
    log.hanging.add('hotel');
    const runner = new Runner({ agent: trip(log, never).agent, appName: 'trips' });
    const run = runner.run({ userId: 'u', sessionId: 's', input: 'book a trip' });
    while (!log.started.includes('hotel Plaza')) await new Promise((r) => setTimeout(r, 2)); // running, never returns
    run.abort({ compensate: true });
    const result = await run.result();
    expect(result.compensation).toEqual({
      undone: [{ callId: 'f1', tool: 'book_flight' }],
      skipped: [{ callId: 'h1', tool: 'book_hotel' }],
      notUndone: [],
    });
    expect(log.lines).toEqual(['book flight LHR-JFK', 'cancel flight LHR-JFK flight-f1 key=s:f1:compensate']);
  });

  it('tool() refuses a compensate that is not a function', () => {
    expect(() =>
      tool({ name: 't', description: 'd', parameters: z.object({}), execute: () => 1, compensate: 'undo' as unknown as () => void }),
    ).toThrow(/compensate must be a function/);
  });

  it('runner.cancel of a session that does not exist, or has no invocation, is refused and writes nothing', async () => {
    const store = new InMemorySessionStore();
    const runner = new Runner({ agent: trip(bookingLog(), never).agent, appName: 'trips', sessionStore: store });
    await expect(runner.cancel({ userId: 'u', sessionId: 'nope', compensate: true }).result()).rejects.toBeInstanceOf(SessionNotFoundError);
    await store.create({ appName: 'trips', userId: 'u', id: 'empty', state: {} });
    await expect(runner.cancel({ userId: 'u', sessionId: 'empty' }).result()).rejects.toMatchObject({
      name: 'ResumeError',
      kind: 'nothing_to_resume',
    });
    expect((await store.get({ appName: 'trips', userId: 'u', id: 'empty' }))?.events).toEqual([]);
  });

  it('runner.cancel without compensate stops a run going on in this process and closes it, undoing nothing', async () => {
    const log = bookingLog();
    const runner = new Runner({ agent: trip(log, never).agent, appName: 'trips' });
    const run = runner.run({ userId: 'u', sessionId: 's', input: 'book a trip' });
    await lines(log, 2);
    const cancelled = await runner.cancel({ userId: 'u', sessionId: 's' }).result();
    expect(cancelled.status).toBe('aborted');
    expect((await run.result()).status).toBe('aborted');
    // Closed: a resume calls no model and runs no tool.
    expect((await runner.resume({ userId: 'u', sessionId: 's' }).result()).status).toBe('aborted');
    expect(log.lines).toEqual(['book flight LHR-JFK', 'book hotel Plaza']);
  });
});
