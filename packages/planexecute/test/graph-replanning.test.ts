import { describe, expect, it } from 'vitest';
import { messageText } from '@replan/core';
import { SessionKeys, type ExecutedGraphStep } from '@replan/planexecute';
import { collect, kindsOf, respondCall } from './support.js';
import { graphCall, graphHarness, graphPairs } from './graph-support.js';

describe('graph replanning', () => {
  it('a failing step: running steps finish, none new start, one replanner call re-plans only it and its dependents', async () => {
    // 1, 2, 3 run together; 4 needs 2, 5 needs 4. Step 2's model fails while 1 and 3 still run.
    let release!: () => void;
    const othersRunning = new Promise<void>((r) => (release = r));
    const h = graphHarness({
      planner: [
        graphCall(
          ['1', 'task 1', []],
          ['2', 'task 2', []],
          ['3', 'task 3', []],
          ['4', 'task 4 after $2', ['2']],
          ['5', 'task 5', ['4', '1']],
        ),
      ],
      steps: {
        'task 1': ['r1'],
        'task 2': [new Error('provider is down')],
        'task 3': ['r3'],
        'task 2b': ['r2b'],
        'task 4b after r2b': ['r4b'],
        'task 5b with r1': ['r5b'],
      },
      replanner: [
        graphCall(['2b', 'task 2b', []], ['4b', 'task 4b after $2b', ['2b']], ['5b', 'task 5b with $1', ['4b', '1']]),
        respondCall('all done'),
      ],
      // 1 and 3 answer only after 2 failed: they are running when it fails
      model: { hold: (task) => (task === 'task 1' || task === 'task 3' ? othersRunning : undefined) },
    });
    const run = h.runner.run({ userId: 'u', input: 'go' });
    const events = [];
    for await (const event of run) {
      events.push(event);
      if ((event.actions?.stateDelta?.[SessionKeys.ExecutedStep] as ExecutedGraphStep | undefined)?.error) release();
    }
    const result = await run.result();
    expect(result.status).toBe('completed');
    expect(result.output).toBe('all done');
    const state = await h.state(result.sessionId);
    expect(graphPairs(state)).toEqual([
      ['2', 'error: ModelCallError: Model call of agent "executor" failed: provider is down'],
      ['1', 'r1'],
      ['3', 'r3'],
      ['2b', 'r2b'],
      ['4b', 'r4b'],
      ['5b', 'r5b'],
    ]);
    // finished steps never ran again; 4 and 5 never started
    expect(['task 1', 'task 2', 'task 3'].map((t) => h.steps.callsFor(t))).toEqual([1, 1, 1]);
    expect(h.steps.callsFor('task 4 after $2')).toBe(0);
    // exactly one replanner call between the failure and the re-planned steps, one at the end
    expect(h.replanner.calls).toBe(2);
    const order = kindsOf(events).map((k) => (k.kind === 'step-result' ? `${k.stepId}` : k.kind));
    expect(order).toEqual(['plan', '2', '1', '3', 'revised-plan', '2b', '4b', '5b', 'answer']);
    // the replanner saw each step's status and results
    const progress = messageText(h.replanner.requests[0]?.messages.at(-1));
    expect(progress).toContain('- [failed] 2: task 2');
    expect(progress).toContain('- [done] 1: task 1');
    expect(progress).toContain('- [not run] 4: task 4 after $2 (after 2)');
    expect(progress).toContain('FAILED: ModelCallError');
    expect(progress).toContain('Result: r3');
    expect(state[SessionKeys.Plan]).toEqual({
      steps: [
        { id: '2b', task: 'task 2b', dependsOn: [] },
        { id: '4b', task: 'task 4b after $2b', dependsOn: ['2b'] },
        { id: '5b', task: 'task 5b with $1', dependsOn: ['4b', '1'] },
      ],
    });
  });

  it('sends a revised graph that reuses a finished id, or depends on the failed step, back for repair', async () => {
    const h = graphHarness({
      planner: [graphCall(['1', 'task 1', []], ['2', 'task 2', []])],
      steps: { 'task 1': ['r1'], 'task 2': [new Error('boom')], 'task 3': ['r3'] },
      replanner: [graphCall(['1', 'task 1', []], ['3', 'task 3', ['2']]), graphCall(['3', 'task 3', ['1']]), respondCall('ok')],
      stepConcurrency: 1,
    });
    const { result } = await collect(h.runner.run({ userId: 'u', input: 'go' }));
    expect(result.status).toBe('completed');
    const repair = messageText(h.replanner.requests[1]?.messages.at(-1));
    expect(repair).toContain('step id "1" belongs to a step that already ran');
    expect(repair).toContain('step "3" depends on "2", which failed');
    expect(h.steps.callsFor('task 1')).toBe(1);
    expect(graphPairs(await h.state(result.sessionId)).map(([id]) => id)).toEqual(['1', '2', '3']);
  });

  it('an empty graph skips the executor and the replanner answers', async () => {
    const h = graphHarness({ planner: [graphCall()], steps: {}, replanner: [respondCall('nothing to do')] });
    const { result } = await collect(h.runner.run({ userId: 'u', input: 'hi' }));
    expect(result.output).toBe('nothing to do');
    expect(h.steps.requests).toHaveLength(0);
  });
});
