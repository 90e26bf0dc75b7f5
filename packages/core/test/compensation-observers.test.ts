import { describe, expect, it } from 'vitest';
import { type LifecycleInfo, type RunLifecycleEvent, type RunObserver, ReActAgent, Runner, tool } from '@replan/core';
import { ScriptedModel, callTools } from '@replan/core/testing';
import { z } from 'zod';
import { bookingLog, bookingTool } from './support/bookings.js';

/** Records the lifecycle events a compensation test cares about, in order. */
function recorder() {
  const seen: RunLifecycleEvent[] = [];
  const observer: RunObserver = {
    onRunStart: (i) => seen.push(i),
    onRunEnd: (i) => seen.push(i),
    onToolCallStart: (i) => seen.push(i),
    onToolCallEnd: (i) => seen.push(i),
    onCancel: (i) => seen.push(i),
  };
  const line = (e: RunLifecycleEvent) =>
    e.kind === 'tool-call-start' || e.kind === 'tool-call-end'
      ? `${e.kind} ${e.toolCallId}${e.compensates ? ` undoes ${e.compensates}` : ''}`
      : e.kind === 'cancel'
        ? `cancel compensate=${e.compensate} running=${e.running}`
        : e.kind === 'run-start'
          ? `run-start resumed=${e.resumed}`
          : e.kind === 'run-end'
            ? `run-end ${e.status}`
            : e.kind;
  return { observer, seen, lines: () => seen.map(line) };
}

/** Books a flight, then (call 1) either asks to pay (approval: the run stops) or waits until aborted. */
function agentThat(then: 'asks' | 'waits') {
  let reached!: () => void;
  const waiting = new Promise<void>((resolve) => {
    reached = resolve;
  });
  const log = bookingLog();
  const model = new ScriptedModel({
    respond: async (_request, call) => {
      if (call === 0) return callTools({ name: 'book_flight', id: 'f1', args: { what: 'LHR' } });
      if (then === 'asks') return callTools({ name: 'pay', id: 'p1', args: {} });
      reached();
      return await new Promise<never>(() => undefined);
    },
  });
  const pay = tool({ name: 'pay', description: 'Pays.', parameters: z.object({}), needsApproval: true, execute: () => 'paid' });
  return { agent: new ReActAgent({ name: 'travel', model, tools: [bookingTool('flight', log), pay] }), waiting, log };
}

describe('compensation and runner.cancel, as observers see them', () => {
  it('a stopped session cancelled with compensate: a resumed run-start, the cancel, the compensation as a tool call saying what it undoes, run-end', async () => {
    const { agent } = agentThat('asks');
    const rec = recorder();
    const runner = new Runner({ agent, appName: 'trips', observers: [rec.observer] });
    expect((await runner.run({ userId: 'u', sessionId: 's', input: 'go' }).result()).status).toBe('interrupted');
    rec.seen.length = 0;
    await runner.cancel({ userId: 'u', sessionId: 's', compensate: true }).result();
    expect(rec.lines()).toEqual([
      'run-start resumed=true',
      'cancel compensate=true running=false',
      'tool-call-start f1:compensate undoes f1',
      'tool-call-end f1:compensate undoes f1',
      'run-end aborted',
    ]);
    const end = rec.seen[3] as LifecycleInfo<'tool-call-end'>;
    expect(end).toMatchObject({ toolName: 'book_flight', isError: false, output: { cancelled: 'flight-f1' } });
    const ids = new Set(rec.seen.map((e) => e.invocationId));
    expect(ids.size).toBe(1);
  });

  it('a stopped session cancelled without compensate is reported too (nothing undone)', async () => {
    const { agent } = agentThat('asks');
    const rec = recorder();
    const runner = new Runner({ agent, appName: 'trips', observers: [rec.observer] });
    await runner.run({ userId: 'u', sessionId: 's', input: 'go' }).result();
    rec.seen.length = 0;
    await runner.cancel({ userId: 'u', sessionId: 's' }).result();
    expect(rec.lines()).toEqual(['run-start resumed=true', 'cancel compensate=false running=false', 'run-end aborted']);
  });

  it('a run going on in this process cancelled with compensate: its compensation and run-end, then the cancel', async () => {
    const { agent, waiting } = agentThat('waits');
    const rec = recorder();
    const runner = new Runner({ agent, appName: 'trips', observers: [rec.observer] });
    const run = runner.run({ userId: 'u', sessionId: 's', input: 'go' });
    await waiting;
    await runner.cancel({ userId: 'u', sessionId: 's', compensate: true }).result();
    expect(rec.lines()).toEqual([
      'run-start resumed=false',
      'tool-call-start f1',
      'tool-call-end f1',
      'tool-call-start f1:compensate undoes f1',
      'tool-call-end f1:compensate undoes f1',
      'run-end aborted',
      'cancel compensate=true running=true',
    ]);
    expect(rec.seen.at(-1)?.invocationId).toBe((await run.result()).invocationId);
  });

  it('a run going on in this process cancelled without compensate: its run-end, then the close, reported once', async () => {
    const { agent, waiting } = agentThat('waits');
    const rec = recorder();
    const runner = new Runner({ agent, appName: 'trips', observers: [rec.observer] });
    void runner.run({ userId: 'u', sessionId: 's', input: 'go' });
    await waiting;
    await runner.cancel({ userId: 'u', sessionId: 's' }).result();
    expect(rec.lines()).toEqual([
      'run-start resumed=false',
      'tool-call-start f1',
      'tool-call-end f1',
      'run-end aborted',
      'run-start resumed=true',
      'cancel compensate=false running=false',
      'run-end aborted',
    ]);
  });
});
