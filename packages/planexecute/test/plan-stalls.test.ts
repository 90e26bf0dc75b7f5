import { afterEach, describe, expect, it } from 'vitest';
import { callTools, reply } from '@replan/core/testing';
import { ConfigurationError } from '@replan/core';
import { createPlanExecuteAgent, createPlanner, createReplanner, PlanStalledError, type PlanReviewPayload } from '@replan/planexecute';
import { ScriptedModel } from '@replan/core/testing';
import { countingTool, planCall, respondCall } from './support.js';
import { fileStore, processOn, removeStores, reviewOf } from './review-support.js';

afterEach(removeStores);

const user = { userId: 'u' };
/** An executor turn that never finishes its step: with stepMaxIterations 1 the step fails each time. */
const stuck = () => callTools({ name: 'search', args: { q: 'x' } });

describe('maxStalls: a replanner that keeps issuing the same plan with no step finished', () => {
  it('without review, ends failed with PlanStalledError naming the plan, after maxStalls revisions (not maxIterations)', async () => {
    const search = countingTool('search');
    const h = processOn(
      await fileStore(),
      {
        planner: [planCall(['fetch the page'])],
        executor: [stuck(), stuck(), stuck(), stuck(), stuck()],
        replanner: Array.from({ length: 9 }, () => planCall(['fetch the page'])),
      },
      { tools: [search.tool], stepMaxIterations: 1, maxIterations: 10 },
    );
    const result = await h.runner.run({ ...user, input: 'go' }).result();
    expect(result.status).toBe('failed');
    expect(result.error).toBeInstanceOf(PlanStalledError);
    expect(result.error?.message).toContain('"fetch the page"');
    expect(result.error?.message).toContain('3 times in a row');
    expect(h.replanner.calls).toBe(3);
    const events = await h.events(result.sessionId);
    expect(events.some((e) => e.error?.name === 'PlanStalledError')).toBe(true);
  });

  it('maxStalls is configurable; the same plan with a step finished each time is no stall', async () => {
    // An empty plan repeated: nothing runs, nothing finishes.
    const h = processOn(await fileStore(), { planner: [planCall([])], replanner: [planCall([]), planCall([])] }, { maxStalls: 2 });
    const result = await h.runner.run({ ...user, input: 'go' }).result();
    expect(result.error).toBeInstanceOf(PlanStalledError);
    expect(h.replanner.calls).toBe(2);

    // The same plan, but a step finishes each time: no stall.
    const ok = processOn(
      await fileStore(),
      {
        planner: [planCall(['poll'])],
        executor: [reply('1'), reply('2'), reply('3'), reply('4')],
        replanner: [planCall(['poll']), planCall(['poll']), planCall(['poll']), respondCall('done')],
      },
      { maxStalls: 2 },
    );
    expect((await ok.runner.run({ ...user, input: 'go' }).result()).status).toBe('completed');
  });

  it('with review, the stalled plan goes to review with the reason; approving it lets the run go on', async () => {
    const search = countingTool('search');
    const store = await fileStore();
    const options = { tools: [search.tool], stepMaxIterations: 1, review: { plan: false, replans: 'never' as const }, maxStalls: 2 };
    const h = processOn(
      store,
      {
        planner: [planCall(['fetch'])],
        executor: [stuck(), stuck()],
        replanner: [planCall(['fetch']), planCall(['fetch'])],
      },
      options,
    );
    const stopped = await h.runner.run({ ...user, input: 'go' }).result();
    const review = reviewOf(stopped);
    expect((review.payload as PlanReviewPayload).reason).toMatch(/^stalled: the same plan 2 times in a row/);
    expect(h.replanner.calls).toBe(2);

    const next = processOn(store, { executor: [reply('fetched')], replanner: [respondCall('done')] }, options);
    const done = await next.runner.resume({ ...user, sessionId: stopped.sessionId, values: { [review.id]: { approve: true } } }).result();
    expect(done.status).toBe('completed');
  });
});

describe('review options checked at construction', () => {
  const model = new ScriptedModel();
  it('refuses bad values and custom parts it cannot work with, saying why', () => {
    expect(() => createPlanExecuteAgent({ model, review: { replans: 'sometimes' as never } })).toThrow(/review.replans must be/);
    expect(() => createPlanExecuteAgent({ model, review: { plans: true } as never })).toThrow(/unknown option\(s\) "plans"/);
    expect(() => createPlanExecuteAgent({ model, maxStalls: 0 })).toThrow(ConfigurationError);
    const custom = { name: 'my_planner', description: 'custom', async *run() {} };
    expect(() =>
      createPlanExecuteAgent({
        planner: custom,
        executor: createPlanner({ model }) as never,
        replanner: createReplanner({ model }),
        review: { plan: true },
      }),
    ).toThrow(/review.plan needs a planner from createPlanner, but "my_planner" is a custom agent/);
    expect(() =>
      createPlanExecuteAgent({
        planner: createPlanner({ model }),
        executor: createPlanner({ model, name: 'x' }) as never,
        replanner: { name: 'my_replanner', description: 'custom', async *run() {} },
        review: { plan: true },
      }),
    ).toThrow(/review needs a replanner from createReplanner, but "my_replanner"/);
  });
});
