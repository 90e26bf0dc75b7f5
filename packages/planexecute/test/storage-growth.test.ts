import { describe, expect, it } from 'vitest';
import { SessionKeys } from '@replan/planexecute';
import { collect, harness, planCall, respondCall, stepPairs } from './support.js';

/** Runs a linear plan of `n` steps (the replanner keeps the rest of the plan, then answers). */
async function runSteps(n: number) {
  const steps = Array.from({ length: n }, (_, i) => `step ${i + 1}`);
  const h = harness({
    planner: [planCall(steps)],
    executor: steps.map((s) => `result of ${s}`),
    replanner: [...steps.slice(1).map((_, i) => planCall(steps.slice(i + 1))), respondCall('done')],
    maxIterations: n + 1,
  });
  const { result } = await collect(h.runner.run({ userId: 'u', input: 'go' }));
  expect(result.status).toBe('completed');
  return { state: await h.state(result.sessionId), events: await h.events(result.sessionId) };
}

describe('ExecutedSteps storage', () => {
  it('stores each executed step once (stateAppend), never the whole list again', async () => {
    const { state, events } = await runSteps(5);
    expect(stepPairs(state).map(([s]) => s)).toEqual(['step 1', 'step 2', 'step 3', 'step 4', 'step 5']);
    const rewrites = events.filter((e) => e.actions?.stateDelta && SessionKeys.ExecutedSteps in e.actions.stateDelta);
    expect(rewrites.map((e) => e.actions?.stateDelta?.[SessionKeys.ExecutedSteps])).toEqual([[]]); // only the planner's reset
    const appends = events.flatMap((e) => (e.actions?.stateAppend?.[SessionKeys.ExecutedSteps] as unknown[] | undefined) ?? []);
    expect(appends.length).toBe(5);
  });

  it('writes the same number of bytes per step as a run grows (no rewrite of the history)', async () => {
    // What each replanner decision stores besides the plan itself (which is the plan as written).
    const replannerBytes = async (n: number) => {
      const { events } = await runSteps(n);
      const sizes = events
        .filter(
          (e) => (e.author === 'replanner' && e.actions?.stateDelta?.[SessionKeys.Plan] !== undefined) || e.actions?.final !== undefined,
        )
        .map((e) => {
          const { [SessionKeys.Plan]: _plan, ...delta } = e.actions?.stateDelta ?? {};
          return JSON.stringify({ delta, append: e.actions?.stateAppend }).length;
        });
      expect(sizes.length).toBe(n);
      return sizes;
    };
    const small = await replannerBytes(4);
    const large = await replannerBytes(16);
    // Step texts differ only in their number's digits, so each decision stores the same size ±4 bytes.
    expect(Math.max(...large) - Math.min(...small)).toBeLessThanOrEqual(4);
  });
});
