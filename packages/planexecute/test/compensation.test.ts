import { describe, expect, it } from 'vitest';
import { type AgentEvent, CompensationError, MaxIterationsError, type Middleware } from '@replan/core';
import { callTools } from '@replan/core/testing';
import { SessionKeys } from '@replan/planexecute';
import { renderRun } from '@replan/planexecute/terminal';
import { graphCall } from './graph-support.js';
import { planCall, respondCall } from './support.js';
import { agentFor, booking, compensations, desk, undoPlan } from './support/booking-desk.js';

describe('plan–execute: a replan that drops steps undoes them', () => {
  it('linear: the replanner marks a finished step to undo; its calls are undone before the next step runs', async () => {
    const d = desk();
    const h = agentFor(
      'linear',
      d,
      {
        planner: [planCall(['fly', 'stay in Rome', 'done'])],
        steps: {
          fly: [booking('flight', 'FCO', 'c1'), 'flight booked'],
          'stay in Rome': [booking('hotel', 'Rome', 'c2'), 'hotel booked'],
          'stay in Milan': [booking('hotel', 'Milan', 'c3'), 'hotel booked'],
        },
        replanner: [planCall(['stay in Rome']), undoPlan(['stay in Milan'], ['2']), respondCall('all set')],
      },
      { strictPlan: true },
    );
    const result = await h.runner.run({ userId: 'u', sessionId: 's', input: 'plan a trip' }).result();
    expect(result.status).toBe('completed');
    expect(d.log).toEqual(['book flight FCO', 'book hotel Rome', 'cancel hotel Rome (hotel:Rome)', 'book hotel Milan']);
    const events = await h.events('s');
    expect(compensations(events)).toEqual([
      { type: 'tool_result', toolCallId: 'c2:compensate', name: 'book_hotel', output: 'cancelled Rome' },
    ]);
  });

  it('linear: compensateDropped undoes a failed step’s finished calls, latest first', async () => {
    const d = desk();
    const h = agentFor(
      'linear',
      d,
      {
        planner: [planCall(['fly and stay'])],
        // Books the flight, then the hotel, then runs out of model calls: the step fails.
        steps: { 'fly and stay': [booking('flight', 'FCO', 'c1'), booking('hotel', 'Rome', 'c2'), 'never'] },
        replanner: [respondCall('could not finish; nothing booked')],
      },
      { compensateDropped: true, stepMaxIterations: 2 },
    );
    const result = await h.runner.run({ userId: 'u', sessionId: 's', input: 'plan a trip' }).result();
    expect(result.status).toBe('completed');
    expect(result.output).toBe('could not finish; nothing booked');
    expect(d.log).toEqual(['book flight FCO', 'book hotel Rome', 'cancel hotel Rome (hotel:Rome)', 'cancel flight FCO (flight:FCO)']);
    const [step] = (await h.state('s'))[SessionKeys.ExecutedSteps] as { error?: string }[];
    expect(step?.error).toMatch(/MaxIterationsError/);
  });

  it('without compensateDropped or a mark, a failed step stays done', async () => {
    const d = desk();
    const h = agentFor(
      'linear',
      d,
      {
        planner: [planCall(['fly and stay'])],
        steps: { 'fly and stay': [booking('flight', 'FCO', 'c1'), booking('hotel', 'Rome', 'c2'), 'x'] },
        replanner: [respondCall('partly')],
      },
      { stepMaxIterations: 2 },
    );
    expect((await h.runner.run({ userId: 'u', sessionId: 's', input: 'go' }).result()).status).toBe('completed');
    expect(d.log).toEqual(['book flight FCO', 'book hotel Rome']);
  });

  it('a dropped step’s call whose result was never stored is not undone: skipped, said once in a compensation-skipped event', async () => {
    const d = desk();
    // The step fails (out of iterations: a failure the loop replans on) while the hotel is being
    // booked: that call is stored, its result never is.
    const dropped: Middleware = {
      name: 'step-dies-mid-call',
      wrapToolCall: (next, call) => (call.name === 'book_hotel' ? Promise.reject(new MaxIterationsError('executor', 2)) : next(call)),
    };
    const h = agentFor(
      'linear',
      d,
      {
        planner: [planCall(['fly and stay'])],
        steps: { 'fly and stay': [booking('flight', 'FCO', 'c1'), booking('hotel', 'Rome', 'c2'), 'x'] },
        replanner: [respondCall('nothing booked')],
      },
      { compensateDropped: true, middleware: [dropped] },
    );
    const result = await h.runner.run({ userId: 'u', sessionId: 's', input: 'go' }).result();
    expect(result.status).toBe('completed');
    expect(d.log).toEqual(['book flight FCO', 'cancel flight FCO (flight:FCO)']);
    const events = await h.events('s');
    const skipped = events.filter((e) => e.meta?.kind === 'compensation-skipped');
    expect(skipped.map((e) => e.meta?.skipped)).toEqual([[{ callId: 'c2', tool: 'book_hotel' }]]);
    // Said after the compensations it goes with, before the run's end.
    const at = events.indexOf(skipped[0] as AgentEvent);
    expect(events.findIndex((e) => e.meta?.kind === 'compensation')).toBeLessThan(at);
    expect(events.findIndex((e) => e.actions?.invocationEnd)).toBeGreaterThan(at);
  });

  it('graph: compensateDropped undoes the failed step, the replanner’s mark a finished one, in reverse order of completion', async () => {
    const d = desk();
    const h = agentFor(
      'graph',
      d,
      {
        planner: [graphCall(['a', 'fly', []], ['b', 'stay', ['a']])],
        steps: {
          fly: [booking('flight', 'FCO', 'c1'), 'flight booked'],
          stay: [booking('hotel', 'Rome', 'c2'), booking('hotel', 'Rome annex', 'c3'), 'never'],
          'go by train': ['train it is'],
        },
        replanner: [
          callTools({ name: 'plan', args: { steps: [{ id: 'c', task: 'go by train', dependsOn: [] }], undo: ['a'] } }),
          respondCall('train instead'),
        ],
      },
      { compensateDropped: true, stepMaxIterations: 2 },
    );
    const result = await h.runner.run({ userId: 'u', sessionId: 's', input: 'plan a trip' }).result();
    expect(result.status).toBe('completed');
    expect(d.log).toEqual([
      'book flight FCO',
      'book hotel Rome',
      'book hotel Rome annex',
      'cancel hotel Rome annex (hotel:Rome annex)',
      'cancel hotel Rome (hotel:Rome)',
      'cancel flight FCO (flight:FCO)',
    ]);
  });

  it('an answer that marks steps to undo: undone before the run completes with the answer', async () => {
    const d = desk();
    const h = agentFor('graph', d, {
      planner: [graphCall(['a', 'fly', []])],
      steps: { fly: [booking('flight', 'FCO', 'c1'), 'flight booked'] },
      replanner: [callTools({ name: 'respond', args: { response: 'trip called off', undo: ['a'] } })],
    });
    const result = await h.runner.run({ userId: 'u', sessionId: 's', input: 'plan a trip' }).result();
    expect(result.status).toBe('completed');
    expect(result.output).toBe('trip called off');
    expect(d.log).toEqual(['book flight FCO', 'cancel flight FCO (flight:FCO)']);
  });

  it('an undo naming no step that ran goes back to the model as a repair', async () => {
    const d = desk();
    const h = agentFor('linear', d, {
      planner: [planCall(['fly'])],
      steps: { fly: [booking('flight', 'FCO', 'c1'), 'flight booked'] },
      replanner: [
        callTools({ name: 'respond', args: { response: 'x', undo: ['7'] } }),
        callTools({ name: 'respond', args: { response: 'called off', undo: ['1'] } }),
      ],
    });
    const result = await h.runner.run({ userId: 'u', sessionId: 's', input: 'go' }).result();
    expect(result.output).toBe('called off');
    expect(JSON.stringify(h.replanner.requests[1]?.messages.at(-1))).toMatch(/names \\"7\\", which is not a step already run/);
    expect(d.log).toEqual(['book flight FCO', 'cancel flight FCO (flight:FCO)']);
  });

  it('a failing compensation ends the run with CompensationError; a resume reports it again and runs nothing', async () => {
    const d = desk();
    d.failing.add('Rome');
    const h = agentFor(
      'linear',
      d,
      {
        planner: [planCall(['fly and stay'])],
        steps: { 'fly and stay': [booking('flight', 'FCO', 'c1'), booking('hotel', 'Rome', 'c2'), 'x'] },
        replanner: [respondCall('none')],
      },
      { compensateDropped: true, stepMaxIterations: 2 },
    );
    const result = await h.runner.run({ userId: 'u', sessionId: 's', input: 'go' }).result();
    expect(result.status).toBe('failed');
    const error = result.error as CompensationError;
    expect(error).toBeInstanceOf(CompensationError);
    expect(error.failed).toMatchObject({ callId: 'c2', tool: 'book_hotel', error: 'Rome cannot be cancelled' });
    expect(error.notUndone.map((c) => c.callId)).toEqual(['c2', 'c1']);
    d.failing.clear();
    const resumed = await h.runner.resume({ userId: 'u', sessionId: 's' }).result();
    expect(resumed.status).toBe('failed');
    expect(resumed.error).toBeInstanceOf(CompensationError);
    expect(d.log.filter((l) => l.startsWith('cancel'))).toEqual(['cancel hotel Rome (hotel:Rome)']);
  });

  it('a run stopped during the compensations is resumed: each compensation once, the answer after them', async () => {
    const d = desk();
    d.stall('FCO');
    const h = agentFor(
      'linear',
      d,
      {
        planner: [planCall(['fly and stay'])],
        steps: { 'fly and stay': [booking('flight', 'FCO', 'c1'), booking('hotel', 'Rome', 'c2'), 'x'] },
        replanner: [respondCall('nothing booked')],
      },
      { compensateDropped: true, stepMaxIterations: 2 },
    );
    const run = h.runner.run({ userId: 'u', sessionId: 's', input: 'go' });
    while (!d.log.includes('cancel hotel Rome (hotel:Rome)')) await new Promise((r) => setTimeout(r, 2));
    run.abort(); // the flight's compensation is waiting
    expect((await run.result()).status).toBe('aborted');
    const resumed = await h.runner.resume({ userId: 'u', sessionId: 's' }).result();
    expect(resumed.status).toBe('completed');
    expect(resumed.output).toBe('nothing booked');
    expect(d.log.filter((l) => l.startsWith('cancel'))).toEqual(['cancel hotel Rome (hotel:Rome)', 'cancel flight FCO (flight:FCO)']);
    expect(h.replanner.calls).toBe(1);
  });

  it('renderRun shows each compensation as an undo line under the replan that dropped the step', async () => {
    const d = desk();
    const h = agentFor('linear', d, {
      planner: [planCall(['fly', 'stay'])],
      steps: { fly: [booking('flight', 'FCO', 'c1'), 'flight booked'], stay: ['no hotel needed'] },
      replanner: [undoPlan(['stay'], ['1']), respondCall('no trip')],
    });
    const chunks: string[] = [];
    const out = {
      isTTY: false,
      write: (chunk: string) => {
        chunks.push(chunk);
        return true;
      },
    } as unknown as NodeJS.WriteStream;
    await renderRun(h.runner.run({ userId: 'u', input: 'go' }), { out, color: false });
    const text = chunks.join('');
    expect(text).toContain('├─ undo book_flight {"what":"FCO"} (call c1)');
    expect(text).toContain('├─ undone cancelled FCO');
  });
});
