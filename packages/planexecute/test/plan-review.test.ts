import { afterEach, describe, expect, it } from 'vitest';
import { ConcurrentUpdateError, messageText, ResumeError, type ModelRequest } from '@replan/core';
import { reply } from '@replan/core/testing';
import { SessionKeys, type PlanReviewPayload } from '@replan/planexecute';
import { planCall, respondCall, stepPairs } from './support.js';
import { fileStore, processOn, removeStores, reviewOf } from './review-support.js';

afterEach(removeStores);

const user = { userId: 'u' };
const allText = (request: ModelRequest | undefined) => (request?.messages ?? []).map(messageText).join('\n');

describe('plan review, linear mode (each answer resumed by a new Runner on the file store)', () => {
  it('stops at the plan before any step runs; approve runs it and keeps it as ApprovedPlan', async () => {
    const store = await fileStore();
    const first = processOn(store, { planner: [planCall(['find a', 'write b'])] }, { review: { plan: true } });
    const stopped = await first.runner.run({ ...user, input: 'go' }).result();
    const review = reviewOf(stopped);
    expect(review.payload).toEqual({ kind: 'plan_review', role: 'planner', agent: 'planner', plan: { steps: ['find a', 'write b'] } });
    expect(first.executor.calls).toBe(0);

    // The revision keeps the approved step still to run: with replans 'changed' it goes on without review.
    const second = processOn(
      store,
      { executor: [reply('A'), reply('B')], replanner: [planCall(['write b']), respondCall('done')] },
      { review: { plan: true } },
    );
    const done = await second.runner.resume({ ...user, sessionId: stopped.sessionId, values: { [review.id]: { approve: true } } }).result();
    expect(done.status).toBe('completed');
    expect(done.output).toBe('done');
    const state = await second.state(stopped.sessionId);
    expect(stepPairs(state)).toEqual([
      ['find a', 'A'],
      ['write b', 'B'],
    ]);
    expect(state.ApprovedPlan).toEqual({ steps: ['find a', 'write b'] });
  });

  it('edit runs the edited plan instead', async () => {
    const store = await fileStore();
    const first = processOn(store, { planner: [planCall(['find a', 'write b'])] }, { review: { plan: true } });
    const stopped = await first.runner.run({ ...user, input: 'go' }).result();
    const review = reviewOf(stopped);

    const second = processOn(store, { executor: [reply('X')], replanner: [respondCall('done')] }, { review: { plan: true } });
    const edit = { steps: ['only x'] };
    const done = await second.runner.resume({ ...user, sessionId: stopped.sessionId, values: { [review.id]: { edit } } }).result();
    expect(done.status).toBe('completed');
    const state = await second.state(stopped.sessionId);
    expect(stepPairs(state)).toEqual([['only x', 'X']]);
    expect(state[SessionKeys.Plan]).toEqual(edit);
    expect(state.ApprovedPlan).toEqual(edit);
  });

  it('refuses an edit with a step that has no text, and takes an edited empty plan as "answer now"', async () => {
    const store = await fileStore();
    const first = processOn(store, { planner: [planCall(['a', 'b'])] }, { review: { plan: true } });
    const stopped = await first.runner.run({ ...user, input: 'go' }).result();
    const review = reviewOf(stopped);
    const before = (await first.events(stopped.sessionId)).length;

    const second = processOn(store, { replanner: [respondCall('Nothing to do: answered at once.')] }, { review: { plan: true } });
    const resume = (edit: unknown) =>
      second.runner.resume({ ...user, sessionId: stopped.sessionId, values: { [review.id]: { edit } } }).result();
    for (const steps of [[''], ['a', '   ']])
      await expect(resume({ steps })).rejects.toThrow(/edited plan is not valid: step \d has no text/);
    expect((await second.events(stopped.sessionId)).length).toBe(before);

    const done = await resume({ steps: [] });
    expect(done.status).toBe('completed');
    expect(done.output).toBe('Nothing to do: answered at once.');
    expect(second.executor.calls).toBe(0);
    expect(stepPairs(await second.state(stopped.sessionId))).toEqual([]);
  });

  it('reject plans again with the feedback in the planner input, and reviews the new plan', async () => {
    const store = await fileStore();
    const first = processOn(store, { planner: [planCall(['a', 'b', 'c'])] }, { review: { plan: true } });
    const stopped = await first.runner.run({ ...user, input: 'go' }).result();
    const review = reviewOf(stopped);

    const second = processOn(store, { planner: [planCall(['ab in one'])] }, { review: { plan: true } });
    const again = await second.runner
      .resume({ ...user, sessionId: stopped.sessionId, values: { [review.id]: { reject: 'Do it in one step.' } } })
      .result();
    const next = reviewOf(again);
    expect(next.id).not.toBe(review.id);
    expect((next.payload as PlanReviewPayload).plan).toEqual({ steps: ['ab in one'] });
    expect(second.planner.calls).toBe(1);
    expect(allText(second.planner.requests[0])).toContain('Do it in one step.');
    expect(allText(second.planner.requests[0])).toContain('rejected your last plan');
    expect(second.executor.calls).toBe(0);

    const third = processOn(store, { executor: [reply('AB')], replanner: [respondCall('done')] }, { review: { plan: true } });
    const done = await third.runner.resume({ ...user, sessionId: stopped.sessionId, values: { [next.id]: { approve: true } } }).result();
    expect(done.status).toBe('completed');
    const state = await third.state(stopped.sessionId);
    expect(stepPairs(state)).toEqual([['ab in one', 'AB']]);
    expect(state.PlanFeedback).toBeNull();
    // The feedback was for that one plan: the replanner no longer sees it.
    expect(allText(third.replanner.requests[0])).not.toContain('Do it in one step.');
  });

  it('refuses an invalid edit or an answer of the wrong kind with a typed error: nothing stored, the review still open', async () => {
    const store = await fileStore();
    const first = processOn(store, { planner: [planCall(['a'])] }, { review: { plan: true } });
    const stopped = await first.runner.run({ ...user, input: 'go' }).result();
    const review = reviewOf(stopped);
    const before = (await first.events(stopped.sessionId)).length;

    const second = processOn(store, {}, { review: { plan: true } });
    const resume = (values: Record<string, unknown>) => second.runner.resume({ ...user, sessionId: stopped.sessionId, values }).result();
    await expect(resume({ [review.id]: { edit: { steps: [42] } } })).rejects.toMatchObject({
      name: 'ResumeError',
      kind: 'invalid_value',
      message: expect.stringContaining('it is a plan review, and'),
    });
    await expect(resume({ [review.id]: { edit: { steps: [42] } } })).rejects.toThrow(/edited plan is not valid: .*steps\.0/);
    await expect(resume({ [review.id]: true })).rejects.toMatchObject({
      name: 'ResumeError',
      kind: 'invalid_value',
      message: expect.stringContaining('it is a plan review, and'),
    });
    await expect(resume({ [review.id]: { approve: true, reject: 'no' } })).rejects.toThrow(/exactly one of/);
    await expect(resume({ [review.id]: { reject: '' } })).rejects.toThrow(/non-empty string/);
    await expect(
      second.runner.resume({ ...user, sessionId: stopped.sessionId, approvals: { [review.id]: true } }).result(),
    ).rejects.toMatchObject({ name: 'ResumeError', kind: 'invalid_value' });
    expect((await second.events(stopped.sessionId)).length).toBe(before);
    expect(second.planner.calls + second.executor.calls).toBe(0);

    const still = await second.runner.resume({ ...user, sessionId: stopped.sessionId }).result();
    expect(reviewOf(still).id).toBe(review.id);
  });

  it('two processes answering one review: one wins, the other is refused, no step runs twice', async () => {
    const store = await fileStore();
    const first = processOn(store, { planner: [planCall(['a'])] }, { review: { plan: true } });
    const stopped = await first.runner.run({ ...user, input: 'go' }).result();
    const review = reviewOf(stopped);
    const scripts = { planner: [planCall(['b'])], executor: [reply('A')], replanner: [respondCall('done')] };
    const approving = processOn(store, scripts, { review: { plan: true } });
    const rejecting = processOn(store, scripts, { review: { plan: true } });
    const settled = await Promise.allSettled([
      approving.runner.resume({ ...user, sessionId: stopped.sessionId, values: { [review.id]: { approve: true } } }).result(),
      rejecting.runner.resume({ ...user, sessionId: stopped.sessionId, values: { [review.id]: { reject: 'no' } } }).result(),
    ]);
    const lost = settled.filter((s) => s.status === 'rejected');
    expect(lost).toHaveLength(1);
    const reason = (lost[0] as PromiseRejectedResult).reason;
    expect(reason instanceof ConcurrentUpdateError || (reason instanceof ResumeError && reason.kind === 'unknown_interrupt')).toBe(true);
    expect(approving.executor.calls + rejecting.executor.calls).toBeLessThanOrEqual(1);
    expect(approving.planner.calls + rejecting.planner.calls).toBeLessThanOrEqual(1);
    const resumes = (await first.events(stopped.sessionId)).filter((e) => e.actions?.resumeValues);
    expect(resumes).toHaveLength(1);
    // Answered once for good: answering again names no open review.
    await expect(
      first.runner.resume({ ...user, sessionId: stopped.sessionId, values: { [review.id]: { approve: true } } }).result(),
    ).rejects.toMatchObject({ name: 'ResumeError', kind: 'unknown_interrupt' });
  });

  it("replans: 'changed' reviews a revision that rewrites an approved step, with its diff", async () => {
    const store = await fileStore();
    const options = { review: { plan: true, replans: 'changed' as const } };
    const first = processOn(store, { planner: [planCall(['a', 'b', 'c'])] }, options);
    const stopped = await first.runner.run({ ...user, input: 'go' }).result();

    const second = processOn(store, { executor: [reply('A')], replanner: [planCall(['b2', 'c', 'd'])] }, options);
    const revised = await second.runner
      .resume({ ...user, sessionId: stopped.sessionId, values: { [reviewOf(stopped).id]: { approve: true } } })
      .result();
    const review = reviewOf(revised);
    expect(review.payload).toEqual({
      kind: 'plan_review',
      role: 'replanner',
      agent: 'replanner',
      plan: { steps: ['b2', 'c', 'd'] },
      diff: { added: ['d'], removed: [], changed: [{ before: 'b', after: 'b2' }] },
    });
    expect(second.executor.calls).toBe(1);

    const third = processOn(
      store,
      { executor: [reply('B2'), reply('C'), reply('D')], replanner: [planCall(['c', 'd']), planCall(['d']), respondCall('done')] },
      options,
    );
    const done = await third.runner.resume({ ...user, sessionId: stopped.sessionId, values: { [review.id]: { approve: true } } }).result();
    expect(done.status).toBe('completed');
    expect(stepPairs(await third.state(stopped.sessionId)).map(([step]) => step)).toEqual(['a', 'b2', 'c', 'd']);
  });

  it("replans: 'changed' reviews a revision that drops an unfinished approved step, with it in diff.removed", async () => {
    const store = await fileStore();
    const options = { review: { plan: true, replans: 'changed' as const } };
    const first = processOn(store, { planner: [planCall(['a', 'b', 'c'])] }, options);
    const stopped = await first.runner.run({ ...user, input: 'go' }).result();

    const second = processOn(store, { executor: [reply('A'), reply('never')], replanner: [planCall(['c'])] }, options);
    const revised = await second.runner
      .resume({ ...user, sessionId: stopped.sessionId, values: { [reviewOf(stopped).id]: { approve: true } } })
      .result();
    const review = reviewOf(revised);
    expect(review.payload).toEqual({
      kind: 'plan_review',
      role: 'replanner',
      agent: 'replanner',
      plan: { steps: ['c'] },
      diff: { added: [], removed: ['b'], changed: [] },
    });
    expect(second.executor.calls).toBe(1); // only 'a': nothing of the revision ran before the review

    const third = processOn(store, { executor: [reply('C')], replanner: [respondCall('done')] }, options);
    const done = await third.runner.resume({ ...user, sessionId: stopped.sessionId, values: { [review.id]: { approve: true } } }).result();
    expect(done.status).toBe('completed');
    expect(stepPairs(await third.state(stopped.sessionId))).toEqual([
      ['a', 'A'],
      ['c', 'C'],
    ]);
  });

  it('a revision rejected, then an answer instead: the feedback is cleared, not left for the next run', async () => {
    const store = await fileStore();
    const options = { review: { plan: false, replans: 'always' as const } };
    const first = processOn(store, { planner: [planCall(['a', 'b'])], executor: [reply('A')], replanner: [planCall(['b'])] }, options);
    const stopped = await first.runner.run({ ...user, input: 'go' }).result();
    const second = processOn(store, { replanner: [respondCall('A is enough')] }, options);
    const done = await second.runner
      .resume({ ...user, sessionId: stopped.sessionId, values: { [reviewOf(stopped).id]: { reject: 'Stop here.' } } })
      .result();
    expect(done.output).toBe('A is enough');
    expect(allText(second.replanner.requests[0])).toContain('Stop here.');
    expect((await second.state(stopped.sessionId)).PlanFeedback).toBeNull();
  });

  it('a run stopped right after the answer was applied resumes without asking again', async () => {
    const store = await fileStore();
    const first = processOn(store, { planner: [planCall(['a'])] }, { review: { plan: true } });
    const stopped = await first.runner.run({ ...user, input: 'go' }).result();
    const review = reviewOf(stopped);

    const second = processOn(store, { executor: [reply('never')] }, { review: { plan: true } });
    const controller = new AbortController();
    const run = second.runner.resume({
      ...user,
      sessionId: stopped.sessionId,
      values: { [review.id]: { approve: true } },
      signal: controller.signal,
    });
    for await (const event of run) if (event.meta?.planExecute === 'plan-reviewed') controller.abort();
    expect((await run.result()).status).toBe('aborted');

    const third = processOn(store, { executor: [reply('A')], replanner: [respondCall('done')] }, { review: { plan: true } });
    const done = await third.runner.resume({ ...user, sessionId: stopped.sessionId }).result();
    expect(done.status).toBe('completed');
    const events = await third.events(stopped.sessionId);
    expect(events.filter((e) => e.actions?.interrupt)).toHaveLength(1);
    expect(events.filter((e) => e.meta?.planExecute === 'plan-reviewed')).toHaveLength(1);
  });

  it("replans: 'always' reviews even a revision that changes nothing; 'never' reviews none", async () => {
    const store = await fileStore();
    const always = processOn(
      store,
      { planner: [planCall(['a', 'b'])], executor: [reply('A')], replanner: [planCall(['b'])] },
      { review: { plan: false, replans: 'always' } },
    );
    const stopped = await always.runner.run({ ...user, input: 'go' }).result();
    expect(reviewOf(stopped).payload).toMatchObject({ role: 'replanner', diff: { added: [], removed: [], changed: [] } });

    const never = processOn(
      await fileStore(),
      { planner: [planCall(['a', 'b'])], executor: [reply('A'), reply('B2')], replanner: [planCall(['b2']), respondCall('done')] },
      { review: { plan: false, replans: 'never' } },
    );
    expect((await never.runner.run({ ...user, input: 'go' }).result()).status).toBe('completed');
  });
});
