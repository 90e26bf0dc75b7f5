import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type AgentEvent, CompensationError, type ScriptedReply, tool } from '@replan/core';
import { ScriptedModel, callTools } from '@replan/core/testing';
import { createExecutor, createPlanExecuteAgent, createPlanner, createReplanner, SessionKeys } from '@replan/planexecute';
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
  extra: { compensateDropped?: boolean; stepMaxIterations?: number } = {},
) {
  const replanner = new ScriptedModel({ responses: script.replanner });
  const agent = createPlanExecuteAgent({
    mode,
    planner: createPlanner({ model: new ScriptedModel({ responses: script.planner }), mode }),
    executor: createExecutor({ model: new TaskModel(script.steps), tools: d.tools, maxIterations: extra.stepMaxIterations ?? 10 }),
    replanner: createReplanner({ model: replanner, mode }),
    ...(extra.compensateDropped ? { compensateDropped: true } : {}),
  });
  return { replanner, ...runnerFor(agent) };
}

const compensations = (events: readonly AgentEvent[]) =>
  events.flatMap((e) => (e.meta?.kind === 'compensation' && e.message?.role === 'tool' ? [e.message.content[0]] : []));

describe('plan–execute: a replan that drops steps undoes them', () => {
  it('linear: the replanner marks a finished step to undo; its calls are undone before the next step runs', async () => {
    const d = desk();
    const h = agentFor('linear', d, {
      planner: [planCall(['fly', 'stay in Rome', 'done'])],
      steps: {
        fly: [booking('flight', 'FCO', 'c1'), 'flight booked'],
        'stay in Rome': [booking('hotel', 'Rome', 'c2'), 'hotel booked'],
        'stay in Milan': [booking('hotel', 'Milan', 'c3'), 'hotel booked'],
      },
      replanner: [planCall(['stay in Rome']), undoPlan(['stay in Milan'], ['2']), respondCall('all set')],
    });
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
});
