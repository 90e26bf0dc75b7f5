import { describe, expect, it } from 'vitest';
import { SessionKeys, PLAN_EXECUTE_META, type ExecutedGraphStep } from '@replan/planexecute';
import { collect, kindsOf, respondCall } from './support.js';
import { graphCall, graphHarness, graphPairs, taskOf } from './graph-support.js';

const answers = (ids: string[]) => Object.fromEntries(ids.map((id) => [`task ${id}`, [`result ${id}`]]));
const ids = (n: number) => Array.from({ length: n }, (_, i) => String(i + 1));

/** Index in the model log of the first `start:` of a task and of its last `end:`. */
const startOf = (log: string[], id: string) => log.indexOf(`start:task ${id}`);
const endOf = (log: string[], id: string) => log.lastIndexOf(`end:task ${id}`);

describe('graph scheduling', () => {
  it('all independent: every step starts before any finishes, bounded by stepConcurrency', async () => {
    const steps = ids(6).map((id): [string, string, string[]] => [id, `task ${id}`, []]);
    const wide = graphHarness({
      planner: [graphCall(...steps)],
      steps: answers(ids(6)),
      replanner: [respondCall('done')],
      stepConcurrency: 8,
      model: { latencyMs: 5 },
    });
    const { result } = await collect(wide.runner.run({ userId: 'u', input: 'go' }));
    expect(result.status).toBe('completed');
    expect(wide.steps.maxActive).toBe(6);
    expect(wide.steps.log.slice(0, 6).every((l) => l.startsWith('start:'))).toBe(true);

    const bounded = graphHarness({
      planner: [graphCall(...steps)],
      steps: answers(ids(6)),
      replanner: [respondCall('done')],
      model: { latencyMs: 5 },
    });
    const second = await collect(bounded.runner.run({ userId: 'u', input: 'go' }));
    expect(second.result.status).toBe('completed');
    expect(bounded.steps.maxActive).toBe(4); // the default stepConcurrency
    expect(bounded.steps.log.slice(0, 4).every((l) => l.startsWith('start:'))).toBe(true);
    expect(bounded.steps.log[4]?.startsWith('end:')).toBe(true);
    expect(graphPairs(await bounded.state(second.result.sessionId))).toHaveLength(6);
    // one replanner call once the graph is exhausted
    expect(bounded.replanner.calls).toBe(1);
  });

  it('a chain runs one step at a time, each after the previous result is stored', async () => {
    const h = graphHarness({
      planner: [graphCall(['1', 'task 1', []], ['2', 'task 2 from $1', ['1']], ['3', 'task 3 from $2', ['2']])],
      steps: { 'task 1': ['A'], 'task 2 from A': ['B'], 'task 3 from B': ['C'] },
      replanner: [respondCall('C')],
      model: { latencyMs: 2 },
    });
    const { events, result } = await collect(h.runner.run({ userId: 'u', input: 'go' }));
    expect(result.status).toBe('completed');
    expect(h.steps.maxActive).toBe(1);
    expect(h.steps.log).toEqual([
      'start:task 1',
      'end:task 1',
      'start:task 2 from A',
      'end:task 2 from A',
      'start:task 3 from B',
      'end:task 3 from B',
    ]);
    const results = events.filter((e) => e.meta?.[PLAN_EXECUTE_META] === 'step-result');
    expect(results.map((e) => [e.path, e.meta?.stepId])).toEqual([
      ['plan_execute/execute_replan/executor/1', '1'],
      ['plan_execute/execute_replan/executor/2', '2'],
      ['plan_execute/execute_replan/executor/3', '3'],
    ]);
    const state = await h.state(result.sessionId);
    expect(state[SessionKeys.ExecutedSteps]).toEqual([
      { id: '1', step: 'task 1', dependsOn: [], result: 'A' },
      { id: '2', step: 'task 2 from $1', dependsOn: ['1'], result: 'B' },
      { id: '3', step: 'task 3 from $2', dependsOn: ['2'], result: 'C' },
    ]);
    // each step has its own branch, and no step result is the run's answer
    expect(new Set(results.map((e) => e.branch)).size).toBe(3);
    expect(results.some((e) => e.actions?.final)).toBe(false);
    expect(kindsOf(events).map((k) => (k.kind === 'step-result' ? `${k.kind}:${k.stepId}` : k.kind))).toEqual([
      'plan',
      'step-result:1',
      'step-result:2',
      'step-result:3',
      'answer',
    ]);
  });

  it('a diamond runs both middle steps together, and the join after both', async () => {
    const h = graphHarness({
      planner: [graphCall(['a', 'task a', []], ['b', 'task b', ['a']], ['c', 'task c', ['a']], ['d', 'task d', ['b', 'c']])],
      steps: answers(['a', 'b', 'c', 'd']),
      replanner: [respondCall('done')],
      model: { latencyMs: 5 },
    });
    const { result } = await collect(h.runner.run({ userId: 'u', input: 'go' }));
    expect(result.status).toBe('completed');
    const log = h.steps.log;
    expect(h.steps.maxActive).toBe(2);
    expect(startOf(log, 'b')).toBeGreaterThan(endOf(log, 'a'));
    expect(startOf(log, 'c')).toBeGreaterThan(endOf(log, 'a'));
    // b and c overlap: both start before either ends
    expect(Math.max(startOf(log, 'b'), startOf(log, 'c'))).toBeLessThan(Math.min(endOf(log, 'b'), endOf(log, 'c')));
    expect(startOf(log, 'd')).toBeGreaterThan(Math.max(endOf(log, 'b'), endOf(log, 'c')));
    // the join sees only its direct dependencies' results, its task last
    const join = h.steps.requests.find((r) => taskOf(r) === 'task d');
    const last = join?.messages.at(-1);
    const text = last?.content.map((b) => (b.type === 'text' ? b.text : '')).join('') ?? '';
    expect(text).toContain('result b');
    expect(text).toContain('result c');
    expect(text).not.toContain('result a');
    expect(text.endsWith('## YOUR TASK\ntask d')).toBe(true);
    const executed = (await h.state(result.sessionId))[SessionKeys.ExecutedSteps] as ExecutedGraphStep[];
    expect(executed.map((s) => s.id)[0]).toBe('a');
    expect(executed.map((s) => s.id)[3]).toBe('d');
  });
});
