import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Runner, tool } from '@replan/core';
import { createPlanExecuteAgent } from '@replan/planexecute';
import { scriptPlanExecute } from '@replan/planexecute/testing';

// The scripted replanner follows each run's progress: it continues the plan until every step ran,
// a second message in the same session starts over, and a step's text tells what its tools returned.
const bookings: string[] = [];
const book = tool({
  name: 'book',
  description: 'Books a flight (asks first).',
  parameters: z.object({ flight: z.string() }),
  needsApproval: true,
  execute: ({ flight }) => (bookings.push(flight), `booked ${flight}`),
});
const script = () =>
  scriptPlanExecute({
    plan: { steps: ['find a flight', 'book it', 'confirm'] },
    steps: {
      'find a flight': 'TP101 is free.',
      'book it': {
        toolCalls: [{ name: 'book', args: { flight: 'TP101' } }],
        // What the step reports comes from what the tool returned: a refusal reads as one.
        text: (results) =>
          results.some((r) => r.isError) ? 'The booking was not approved: nothing booked.' : `Done: ${String(results[0]?.output)}.`,
      },
      confirm: 'Confirmed.',
    },
    answer: (results) => `Summary: ${results['book it']}`,
  });
const runnerWith = (s: ReturnType<typeof script>) =>
  new Runner({ agent: createPlanExecuteAgent({ model: s.model, tools: [book] }), appName: 'trips' });

describe('scriptPlanExecute follows the run', () => {
  it('runs every step of the plan with no replans listed, then answers', async () => {
    const s = script();
    const runner = runnerWith(s);
    const stopped = await runner.run({ userId: 'u', sessionId: 'a', input: 'book me' }).result();
    const done = await runner.resume({ userId: 'u', sessionId: 'a', approvals: { [stopped.interrupts[0]?.id ?? '']: true } }).result();
    expect(done.status).toBe('completed');
    expect(done.output).toBe('Summary: Done: booked TP101.');
    // find, book, confirm: the replanner continued twice, then answered.
    expect(s.replannerModel.calls).toBe(3);
    expect(s.executorModel.callers.map((c) => c?.label?.text)).toEqual(['find a flight', 'book it', 'book it', 'confirm']);
  });

  it('a denied booking reads as denied, and a second message in the same session starts the script over', async () => {
    const s = script();
    const runner = runnerWith(s);
    const first = await runner.run({ userId: 'u', sessionId: 'b', input: 'book me' }).result();
    const denied = await runner.resume({ userId: 'u', sessionId: 'b', approvals: { [first.interrupts[0]?.id ?? '']: false } }).result();
    expect(denied.output).toBe('Summary: The booking was not approved: nothing booked.');
    const again = await runner.run({ userId: 'u', sessionId: 'b', input: 'try again' }).result();
    expect(again.status).toBe('interrupted');
    const booked = await runner.resume({ userId: 'u', sessionId: 'b', approvals: { [again.interrupts[0]?.id ?? '']: true } }).result();
    expect(booked.output).toBe('Summary: Done: booked TP101.');
  });

  it('keeps two sessions served by the same models apart', async () => {
    const s = script();
    const runner = runnerWith(s);
    const x = await runner.run({ userId: 'u', sessionId: 'x', input: 'book' }).result();
    const y = await runner.run({ userId: 'u', sessionId: 'y', input: 'book' }).result();
    const ys = await runner.resume({ userId: 'u', sessionId: 'y', approvals: { [y.interrupts[0]?.id ?? '']: false } }).result();
    const xs = await runner.resume({ userId: 'u', sessionId: 'x', approvals: { [x.interrupts[0]?.id ?? '']: true } }).result();
    expect(ys.output).toBe('Summary: The booking was not approved: nothing booked.');
    expect(xs.output).toBe('Summary: Done: booked TP101.');
  });
});
