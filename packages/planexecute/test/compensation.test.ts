import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type AgentEvent, CompensationError, MaxIterationsError, type Middleware, tool } from '@replan/core';
import { ScriptedModel, type ScriptedReply, callTools } from '@replan/core/testing';
import {
  createExecutor,
  createPlanExecuteAgent,
  createPlanner,
  createReplanner,
  planExecuteEventKind,
  SessionKeys,
} from '@replan/planexecute';
import { renderRun } from '@replan/planexecute/terminal';
import { graphCall, TaskModel } from './graph-support.js';
import { planCall, respondCall, runnerFor } from './support.js';

/**
 * Booking tools whose runs and compensations are logged in order; `failing` compensations throw; the
 * first compensation of the `stall`ed booking never ends (a process that died in it).
 */
function desk() {
  const log: string[] = [];
  const failing = new Set<string>();
  let stalled: string | undefined;
  const book = (kind: string) =>
    tool({
      name: `book_${kind}`,
      description: `Books a ${kind}.`,
      parameters: z.object({ what: z.string() }),
      execute: ({ what }) => {
        log.push(`book ${kind} ${what}`);
        return { ref: `${kind}:${what}` };
      },
      compensate: async ({ what }, result) => {
        if (stalled === what) {
          stalled = undefined;
          await new Promise(() => undefined);
        }
        log.push(`cancel ${kind} ${what} (${(result as { ref: string }).ref})`);
        if (failing.has(what)) throw new Error(`${what} cannot be cancelled`);
        return `cancelled ${what}`;
      },
    });
  return { log, failing, stall: (what: string) => (stalled = what), tools: [book('flight'), book('hotel')] };
}

const booking = (kind: string, what: string, id: string) => callTools({ name: `book_${kind}`, id, args: { what } });
const undoPlan = (steps: string[], undo: string[]) => planCall(steps, { undo });

function agentFor(
  mode: 'linear' | 'graph',
  d: ReturnType<typeof desk>,
  script: { planner: ScriptedReply[]; steps: Record<string, ScriptedReply[]>; replanner: ScriptedReply[] },
  extra: {
    compensateDropped?: boolean;
    stepMaxIterations?: number;
    hold?: (task: string, call: number) => Promise<void> | undefined;
    strictPlan?: boolean;
    middleware?: Middleware[];
  } = {},
) {
  const replanner = new ScriptedModel({ responses: script.replanner });
  const steps = new TaskModel(script.steps, extra.hold ? { hold: extra.hold } : {});
  // A plan schema of one's own that refuses unknown fields: `undo` is not the plan's.
  const strict = extra.strictPlan ? { planSchema: z.strictObject({ steps: z.array(z.string()) }) } : {};
  const agent = createPlanExecuteAgent({
    mode,
    planner: createPlanner({ model: new ScriptedModel({ responses: script.planner }), ...strict }),
    executor: createExecutor({
      model: steps,
      tools: d.tools,
      maxIterations: extra.stepMaxIterations ?? 10,
      ...(extra.middleware ? { middleware: extra.middleware } : {}),
    }),
    replanner: createReplanner({ model: replanner, ...strict }),
    ...(extra.compensateDropped ? { compensateDropped: true } : {}),
  });
  return { replanner, ...runnerFor(agent) };
}

const compensations = (events: readonly AgentEvent[]) =>
  events.flatMap((e) => (e.meta?.kind === 'compensation' && e.message?.role === 'tool' ? [e.message.content[0]] : []));

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
