import { describe, expect, it } from 'vitest';
import { planExecuteEventKind } from '@replan/planexecute';
import { graphCall } from './graph-support.js';
import { planCall, respondCall } from './support.js';
import { agentFor, booking, desk } from './support/booking-desk.js';

describe('plan–execute: a cancelled run undoes its steps', () => {
  const never = new Promise<void>(() => undefined);

  it('linear: run.abort({ compensate: true }) while a step runs undoes the finished steps, latest first', async () => {
    const d = desk();
    const h = agentFor(
      'linear',
      d,
      {
        planner: [planCall(['fly', 'stay', 'pay'])],
        steps: { fly: [booking('flight', 'FCO', 'c1'), 'ok'], stay: [booking('hotel', 'Rome', 'c2'), 'ok'], pay: ['paid'] },
        replanner: [planCall(['stay', 'pay']), planCall(['pay']), respondCall('done')],
      },
      { hold: (task) => (task === 'pay' ? never : undefined) },
    );
    const run = h.runner.run({ userId: 'u', sessionId: 's', input: 'go' });
    for await (const event of run) {
      const kind = planExecuteEventKind(event);
      if (kind?.kind === 'revised-plan' && (kind.plan as { steps: string[] }).steps[0] === 'pay') run.abort({ compensate: true });
    }
    const result = await run.result();
    expect(result.status).toBe('aborted');
    expect(result.compensation?.undone.map((c) => c.callId)).toEqual(['c2', 'c1']);
    expect(d.log).toEqual(['book flight FCO', 'book hotel Rome', 'cancel hotel Rome (hotel:Rome)', 'cancel flight FCO (flight:FCO)']);
  });

  it('graph: runner.cancel({ compensate: true }) of a stopped run undoes the parallel steps in reverse order of completion', async () => {
    const d = desk();
    let releaseHotel!: () => void;
    const hotelDone = new Promise<void>((r) => (releaseHotel = r));
    const h = agentFor(
      'graph',
      d,
      {
        planner: [graphCall(['a', 'fly', []], ['b', 'stay', []], ['c', 'pay', ['a', 'b']])],
        steps: { fly: [booking('flight', 'FCO', 'c1'), 'ok'], stay: [booking('hotel', 'Rome', 'c2'), 'ok'], pay: ['paid'] },
        replanner: [respondCall('done')],
      },
      // The hotel is booked after the flight (its first model call waits for the flight's result).
      { hold: (task, call) => (task === 'stay' && call === 0 ? hotelDone : task === 'pay' ? never : undefined) },
    );
    const run = h.runner.run({ userId: 'u', sessionId: 's', input: 'go' });
    for await (const event of run) {
      const kind = planExecuteEventKind(event);
      if (kind?.kind === 'step-result' && kind.stepId === 'a') releaseHotel();
      if (kind?.kind === 'step-result' && kind.stepId === 'b') run.abort(); // stopped (resumable), nothing undone yet
    }
    expect((await run.result()).status).toBe('aborted');
    expect(d.log).toEqual(['book flight FCO', 'book hotel Rome']);
    const cancelled = await h.runner.cancel({ userId: 'u', sessionId: 's', compensate: true }).result();
    expect(cancelled.status).toBe('aborted');
    expect(cancelled.compensation?.undone.map((c) => c.callId)).toEqual(['c2', 'c1']);
    expect(d.log.slice(2)).toEqual(['cancel hotel Rome (hotel:Rome)', 'cancel flight FCO (flight:FCO)']);
    // Closed for good: a resume runs no step and undoes nothing more.
    expect((await h.runner.resume({ userId: 'u', sessionId: 's' }).result()).status).toBe('aborted');
    expect(d.log).toHaveLength(4);
  });

  it('graph: run.abort({ compensate: true }) while a step runs undoes the finished steps', async () => {
    const d = desk();
    const h = agentFor(
      'graph',
      d,
      {
        planner: [graphCall(['a', 'fly', []], ['b', 'stay', ['a']], ['c', 'pay', ['b']])],
        steps: { fly: [booking('flight', 'FCO', 'c1'), 'ok'], stay: [booking('hotel', 'Rome', 'c2'), 'ok'], pay: ['paid'] },
        replanner: [respondCall('done')],
      },
      { hold: (task) => (task === 'pay' ? never : undefined) },
    );
    const run = h.runner.run({ userId: 'u', sessionId: 's', input: 'go' });
    for await (const event of run) {
      const kind = planExecuteEventKind(event);
      if (kind?.kind === 'step-result' && kind.stepId === 'b') run.abort({ compensate: true });
    }
    const result = await run.result();
    expect(result.status).toBe('aborted');
    expect(result.compensation?.undone.map((c) => c.callId)).toEqual(['c2', 'c1']);
    expect(d.log.slice(2)).toEqual(['cancel hotel Rome (hotel:Rome)', 'cancel flight FCO (flight:FCO)']);
  });

  it('linear: runner.cancel({ compensate: true }) aborts the running run and undoes it', async () => {
    const d = desk();
    let paying!: () => void;
    const payStarted = new Promise<void>((resolve) => {
      paying = resolve;
    });
    const h = agentFor(
      'linear',
      d,
      {
        planner: [planCall(['fly', 'pay'])],
        steps: { fly: [booking('flight', 'FCO', 'c1'), 'ok'], pay: ['paid'] },
        replanner: [planCall(['pay']), respondCall('done')],
      },
      {
        hold: (task) => {
          if (task !== 'pay') return undefined;
          paying();
          return never;
        },
      },
    );
    const run = h.runner.run({ userId: 'u', sessionId: 's', input: 'go' });
    await payStarted; // the pay step is waiting on its model
    const cancelled = await h.runner.cancel({ userId: 'u', sessionId: 's', compensate: true }).result();
    expect(cancelled.status).toBe('aborted');
    expect((await run.result()).compensation?.undone).toEqual([{ callId: 'c1', tool: 'book_flight' }]);
    expect(d.log).toEqual(['book flight FCO', 'cancel flight FCO (flight:FCO)']);
  });
});
