import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type ChatModel, InMemorySessionStore, Runner, type Session, type Tool, tool } from '@replan/core';
import { ReplayModel, ScriptedModel, callTools, replayTools } from '@replan/core/testing';
import { createExecutor, createPlanExecuteAgent, createPlanner, createReplanner } from '@replan/planexecute';
import { planCall, respondCall } from './support.js';
import { TaskModel, graphCall } from './graph-support.js';

// A resume numbers its model calls from 1 again. A replay (one run) must still answer its calls
// in the recorded order: every call of the interrupted run before any call of its resume. When it
// did not, a call waited for another path's answer that could only come after it (the order wait
// timed out: a second per wait), and a graph replanner then saw the steps in another order.

type Mode = 'linear' | 'graph';

const agentOf = (mode: Mode, models: { planner: ChatModel; executor: ChatModel; replanner: ChatModel }, tools: readonly Tool[]) =>
  createPlanExecuteAgent({
    mode,
    planner: createPlanner({ model: models.planner }),
    executor: createExecutor({ model: models.executor, tools }),
    replanner: createReplanner({ model: models.replanner }),
  });

function world() {
  const runs: string[] = [];
  const pay = tool({
    name: 'pay',
    description: 'pays a bill',
    parameters: z.object({ q: z.string() }),
    needsApproval: true,
    execute: ({ q }) => {
      runs.push(`pay ${q}`);
      return `paid ${q}`;
    },
  });
  const look = tool({
    name: 'look',
    description: 'looks something up',
    parameters: z.object({ q: z.string() }),
    execute: ({ q }) => {
      runs.push(`look ${q}`);
      return `saw ${q}`;
    },
  });
  return { runs, tools: [pay, look] };
}

/** Runs `models` until the run ends, approving every interrupt on the way; returns the stored session. */
async function recordWithResumes(mode: Mode, models: { planner: ChatModel; executor: ChatModel; replanner: ChatModel }) {
  const store = new InMemorySessionStore();
  const runner = new Runner({ agent: agentOf(mode, models, world().tools), appName: 'pe-test', sessionStore: store });
  let result = await runner.run({ userId: 'u', sessionId: 's', input: 'pay the bills' }).result();
  let resumes = 0;
  while (result.status === 'interrupted') {
    const values = Object.fromEntries(result.interrupts.map((i) => [i.id, true]));
    result = await runner.resume({ userId: 'u', sessionId: 's', values }).result();
    resumes++;
  }
  expect(result.status, result.error?.message).toBe('completed');
  const session = (await store.get({ appName: 'pe-test', userId: 'u', id: 's' })) as Session;
  return { session, answer: result.output, resumes };
}

async function replay(mode: Mode, session: Session) {
  const { runs, tools } = world();
  const model = ReplayModel.fromSession(session);
  const agent = agentOf(mode, { planner: model, executor: model, replanner: model }, replayTools(session, tools));
  const result = await new Runner({ agent, appName: 'pe-test' }).run({ userId: 'u', input: 'pay the bills' }).result();
  return { result, runs, model };
}

describe('replaying a recording with interrupts and resumes', () => {
  it('linear: two approvals, two resumes — replayed in one run without a single order wait', async () => {
    const recorded = await recordWithResumes('linear', {
      planner: new ScriptedModel({ responses: [planCall(['pay rent', 'pay water'])] }),
      executor: new ScriptedModel({
        responses: [
          callTools({ name: 'pay', args: { q: 'rent' } }),
          'rent paid',
          callTools({ name: 'pay', args: { q: 'water' } }),
          'water paid',
        ],
      }),
      replanner: new ScriptedModel({ responses: [planCall(['pay water']), respondCall('both paid')] }),
    });
    expect(recorded.resumes).toBe(2);
    const { result, runs, model } = await replay('linear', recorded.session);
    expect(result.status, result.error?.message).toBe('completed');
    expect(result.output).toBe(recorded.answer);
    expect(runs).toEqual([]);
    expect(model.finished).toBe(true);
    expect(model.orderWaits).toBe(0);
  });

  it('graph: a step interrupted beside one that finished replays its steps in the recorded order', async () => {
    const recorded = await recordWithResumes('graph', {
      planner: new ScriptedModel({ responses: [graphCall(['A', 'pay a', []], ['B', 'look b', []])] }),
      executor: new TaskModel({
        'pay a': [callTools({ name: 'pay', args: { q: 'a' } }), 'a paid'],
        'look b': [callTools({ name: 'look', args: { q: 'b' } }), 'b seen'],
      }),
      replanner: new ScriptedModel({ responses: [respondCall('a paid, b seen')] }),
    });
    expect(recorded.resumes).toBe(1);
    const { result, runs, model } = await replay('graph', recorded.session);
    // Before, step B's call waited (in vain, until orderWaitMs) for the replanner's call of the resume,
    // so A finished first and the replanner's request no longer matched the recording.
    expect(result.status, result.error?.message).toBe('completed');
    expect(result.output).toBe(recorded.answer);
    expect(runs).toEqual([]);
    expect(model.finished).toBe(true);
    // The two waits the recorded order asks for, each until the other path's answer is served: B's
    // first call for A's (recorded first), A's call of the resume for B's last (B had finished).
    expect(model.orderWaits).toBe(2);
  });
});
