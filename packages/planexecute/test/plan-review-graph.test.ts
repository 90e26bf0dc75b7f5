import { afterEach, describe, expect, it } from 'vitest';
import { callTools, reply } from '@replan/core/testing';
import { PlanStalledError, SessionKeys, type PlanReviewPayload } from '@replan/planexecute';
import { countingTool, respondCall } from './support.js';
import { graphCall } from './graph-support.js';
import { fileStore, processOn, removeStores, reviewOf } from './review-support.js';

afterEach(removeStores);

const user = { userId: 'u' };
const graph = { mode: 'graph' as const, review: { plan: true } };
const chain = graphCall(['a', 'task A', []], ['b', 'task B from $a', ['a']]);
const doneIds = (state: Record<string, unknown>) => (state[SessionKeys.ExecutedSteps] as { id: string }[]).map((s) => s.id);

describe('plan review, graph mode (each answer resumed by a new Runner on the file store)', () => {
  it('approve: no step starts before it; then the graph runs', async () => {
    const store = await fileStore();
    const first = processOn(store, { planner: [chain] }, graph);
    const stopped = await first.runner.run({ ...user, input: 'go' }).result();
    const review = reviewOf(stopped);
    expect((review.payload as PlanReviewPayload).plan).toEqual({
      steps: [
        { id: 'a', task: 'task A', dependsOn: [] },
        { id: 'b', task: 'task B from $a', dependsOn: ['a'] },
      ],
    });
    expect(first.executor.calls).toBe(0);

    const second = processOn(store, { executor: [reply('A'), reply('B')], replanner: [respondCall('done')] }, graph);
    const done = await second.runner.resume({ ...user, sessionId: stopped.sessionId, values: { [review.id]: { approve: true } } }).result();
    expect(done.status).toBe('completed');
    expect(doneIds(await second.state(stopped.sessionId))).toEqual(['a', 'b']);
  });

  it('edit: an invalid graph is refused (the review stays open), a valid one runs', async () => {
    const store = await fileStore();
    const first = processOn(store, { planner: [chain] }, graph);
    const stopped = await first.runner.run({ ...user, input: 'go' }).result();
    const review = reviewOf(stopped);

    const second = processOn(store, { executor: [reply('C')], replanner: [respondCall('done')] }, graph);
    const cycle = {
      steps: [
        { id: 'x', task: 'X', dependsOn: ['y'] },
        { id: 'y', task: 'Y', dependsOn: ['x'] },
      ],
    };
    await expect(
      second.runner.resume({ ...user, sessionId: stopped.sessionId, values: { [review.id]: { edit: cycle } } }).result(),
    ).rejects.toMatchObject({ name: 'ResumeError', kind: 'invalid_value', message: expect.stringContaining('it is a plan review, and') });
    expect(second.executor.calls).toBe(0);

    const edit = { steps: [{ id: 'c', task: 'task C', dependsOn: [] }] };
    const done = await second.runner.resume({ ...user, sessionId: stopped.sessionId, values: { [review.id]: { edit } } }).result();
    expect(done.status).toBe('completed');
    const state = await second.state(stopped.sessionId);
    expect(doneIds(state)).toEqual(['c']);
    expect(state.ApprovedPlan).toEqual(edit);
  });

  it('reject: the planner plans again with the feedback; the new graph is reviewed, then runs', async () => {
    const store = await fileStore();
    const first = processOn(store, { planner: [chain] }, graph);
    const stopped = await first.runner.run({ ...user, input: 'go' }).result();

    const second = processOn(store, { planner: [graphCall(['only', 'one task', []])] }, graph);
    const again = await second.runner
      .resume({ ...user, sessionId: stopped.sessionId, values: { [reviewOf(stopped).id]: { reject: 'One step is enough.' } } })
      .result();
    const next = reviewOf(again);
    expect((next.payload as PlanReviewPayload).plan).toEqual({ steps: [{ id: 'only', task: 'one task', dependsOn: [] }] });
    expect(JSON.stringify(second.planner.requests[0]?.messages)).toContain('One step is enough.');

    const third = processOn(store, { executor: [reply('O')], replanner: [respondCall('done')] }, graph);
    const done = await third.runner.resume({ ...user, sessionId: stopped.sessionId, values: { [next.id]: { approve: true } } }).result();
    expect(done.status).toBe('completed');
    expect(doneIds(await third.state(stopped.sessionId))).toEqual(['only']);
  });

  it("a revised graph is reviewed with its diff by id under replans: 'changed'", async () => {
    const store = await fileStore();
    const options = { mode: 'graph' as const, review: { plan: false, replans: 'changed' as const } };
    const a = processOn(
      store,
      {
        planner: [graphCall(['a', 'task A', []])],
        executor: [reply('A')],
        replanner: [graphCall(['b', 'task B', ['a']])],
      },
      options,
    );
    const stopped = await a.runner.run({ ...user, input: 'go' }).result();
    expect(reviewOf(stopped).payload).toMatchObject({
      role: 'replanner',
      diff: { added: [{ id: 'b', task: 'task B', dependsOn: ['a'] }], removed: [], changed: [] },
    });
  });

  it("replans: 'changed' reviews a revision that rewrites an unfinished step under the same id (diff.changed)", async () => {
    // A graph runs every step it can before the replanner is asked, so a failed step (its one
    // iteration spent on a tool call) is what leaves approved steps unfinished at a revision.
    const store = await fileStore();
    const search = countingTool('search');
    const options = {
      mode: 'graph' as const,
      review: { plan: true, replans: 'changed' as const },
      tools: [search.tool],
      stepMaxIterations: 1,
    };
    const first = processOn(store, { planner: [chain] }, options);
    const stopped = await first.runner.run({ ...user, input: 'go' }).result();

    // The failed 'a' is replaced under a new id (ids that ran are never reused); 'b' keeps its id with a new task.
    const revision = graphCall(['a2', 'task A, another way', []], ['b', 'task B, shorter, from $a2', ['a2']]);
    const second = processOn(store, { executor: [callTools({ name: 'search', args: { q: 'x' } })], replanner: [revision] }, options);
    const revised = await second.runner
      .resume({ ...user, sessionId: stopped.sessionId, values: { [reviewOf(stopped).id]: { approve: true } } })
      .result();
    expect(reviewOf(revised).payload).toMatchObject({
      role: 'replanner',
      diff: {
        added: [{ id: 'a2', task: 'task A, another way', dependsOn: [] }],
        removed: [{ id: 'a', task: 'task A', dependsOn: [] }],
        changed: [
          {
            before: { id: 'b', task: 'task B from $a', dependsOn: ['a'] },
            after: { id: 'b', task: 'task B, shorter, from $a2', dependsOn: ['a2'] },
          },
        ],
      },
    });
    expect(second.executor.calls).toBe(1); // the failed 'a' only: nothing of the revision ran before the review
    expect(search.calls).toEqual(['x']);
  });

  it('an edit of a revised graph may depend on finished steps but never reuse their ids', async () => {
    const store = await fileStore();
    const options = { mode: 'graph' as const, review: { plan: false, replans: 'always' as const } };
    const first = processOn(
      store,
      { planner: [graphCall(['a', 'task A', []])], executor: [reply('A')], replanner: [graphCall(['b', 'task B', ['a']])] },
      options,
    );
    const stopped = await first.runner.run({ ...user, input: 'go' }).result();
    const review = reviewOf(stopped);

    const second = processOn(store, { executor: [reply('C')], replanner: [respondCall('done')] }, options);
    const resume = (edit: unknown) =>
      second.runner.resume({ ...user, sessionId: stopped.sessionId, values: { [review.id]: { edit } } }).result();
    await expect(resume({ steps: [{ id: 'a', task: 'again', dependsOn: [] }] })).rejects.toThrow(/already ran/);
    const done = await resume({ steps: [{ id: 'c', task: 'task C from $a', dependsOn: ['a'] }] });
    expect(done.status).toBe('completed');
    expect(doneIds(await second.state(stopped.sessionId))).toEqual(['a', 'c']);
  });

  it('a graph replanner retrying a failing task under new ids stalls (same task, nothing finished)', async () => {
    const search = countingTool('search');
    const stuck = () => callTools({ name: 'search', args: { q: 'x' } });
    const h = processOn(
      await fileStore(),
      {
        planner: [graphCall(['a1', 'fetch', []])],
        executor: [stuck(), stuck(), stuck()],
        replanner: [graphCall(['a2', 'fetch', []]), graphCall(['a3', 'fetch', []]), graphCall(['a4', 'fetch', []])],
      },
      { mode: 'graph', tools: [search.tool], stepMaxIterations: 1 },
    );
    const result = await h.runner.run({ ...user, input: 'go' }).result();
    expect(result.error).toBeInstanceOf(PlanStalledError);
    expect(h.replanner.calls).toBe(3);
  });

  it('with streamingPlan, the plan is reviewed before any step starts', async () => {
    const store = await fileStore();
    const first = processOn(store, { planner: [chain] }, { ...graph, streamingPlan: true });
    const stopped = await first.runner.run({ ...user, input: 'go', stream: true }).result();
    reviewOf(stopped);
    expect(first.executor.calls).toBe(0);
  });
});

describe("replans: 'changed' and a failed graph step retried under a new id", () => {
  // 'a' fails (its one iteration spent on a tool call), so 'b' never runs; ids that ran are never
  // reused, so the replanner can only issue 'a' again under a new id.
  const failA = () => callTools({ name: 'search', args: { q: 'x' } });
  const approvedA = { id: 'a', task: 'task A', dependsOn: [] };
  const approvedB = { id: 'b', task: 'task B from $a', dependsOn: ['a'] };

  /** Runs the chain to its approval, `a` failing after it; the replanner answers `revisions`. */
  async function failThenRevise(replans: 'changed' | 'always', executor: unknown[], revisions: unknown[]) {
    const store = await fileStore();
    const search = countingTool('search');
    const options = { mode: 'graph' as const, review: { plan: true, replans }, tools: [search.tool], stepMaxIterations: 1 };
    const first = processOn(store, { planner: [chain] }, options);
    const stopped = await first.runner.run({ ...user, input: 'go' }).result();
    const second = processOn(store, { executor: [failA(), ...(executor as never[])], replanner: revisions as never[] }, options);
    const result = await second.runner
      .resume({ ...user, sessionId: stopped.sessionId, values: { [reviewOf(stopped).id]: { approve: true } } })
      .result();
    return { result, second, sessionId: stopped.sessionId };
  }

  it('the same task under a new id, dependents re-pointed: runs on without review and completes', async () => {
    const retry = graphCall(['a2', 'task A', []], ['b', 'task B from $a2', ['a2']]);
    const { result, second, sessionId } = await failThenRevise('changed', [reply('A'), reply('B')], [retry, respondCall('done')]);
    expect(result.interrupts).toEqual([]);
    expect(result.status).toBe('completed');
    const state = await second.state(sessionId);
    expect(doneIds(state)).toEqual(['a', 'a2', 'b']);
    expect((state[SessionKeys.ExecutedSteps] as { id: string; error?: string }[]).map((s) => s.error !== undefined)).toEqual([
      true,
      false,
      false,
    ]);
    expect(state.ApprovedPlan).toEqual({ steps: [approvedA, approvedB] }); // nothing new was approved
  });

  it('once the retry has succeeded, the failed step counts as finished: a later revision shows only what it adds', async () => {
    const retry = graphCall(['a2', 'task A', []], ['b', 'task B from $a2', ['a2']]);
    const more = graphCall(['c', 'check $b', ['b']]);
    const { result } = await failThenRevise('changed', [reply('A'), reply('B')], [retry, more]);
    expect((reviewOf(result).payload as PlanReviewPayload).diff).toEqual({
      added: [{ id: 'c', task: 'check $b', dependsOn: ['b'] }],
      removed: [],
      changed: [],
    });
  });

  it('the retry with another task stops for review; the diff shows it added, the failed step removed, the dependent re-pointed', async () => {
    const rewritten = graphCall(['a2', 'task A, another way', []], ['b', 'task B from $a2', ['a2']]);
    const { result, second } = await failThenRevise('changed', [], [rewritten]);
    expect(reviewOf(result).payload).toMatchObject({
      role: 'replanner',
      diff: {
        added: [{ id: 'a2', task: 'task A, another way', dependsOn: [] }],
        removed: [approvedA],
        changed: [{ before: approvedB, after: { id: 'b', task: 'task B from $a2', dependsOn: ['a2'] } }],
      },
    });
    expect(second.executor.calls).toBe(1); // the failed 'a' only
  });

  it('a matched retry is no change, but what else the revision changes stops for review and is in the diff', async () => {
    const revision = graphCall(['a2', 'task A', []], ['b', 'task B, shorter, from ${a2}', ['a2']], ['c', 'check $b', ['b']]);
    const { result } = await failThenRevise('changed', [], [revision]);
    const { diff } = reviewOf(result).payload as PlanReviewPayload;
    expect(diff).toEqual({
      added: [{ id: 'c', task: 'check $b', dependsOn: ['b'] }],
      removed: [],
      changed: [{ before: approvedB, after: { id: 'b', task: 'task B, shorter, from ${a2}', dependsOn: ['a2'] } }],
    });
  });

  it("under replans: 'always' the same retry stops for review, with an empty diff", async () => {
    const retry = graphCall(['a2', 'task A', []], ['b', 'task B from $a2', ['a2']]);
    const { result, second } = await failThenRevise('always', [], [retry]);
    const payload = reviewOf(result).payload as PlanReviewPayload;
    expect(payload.plan).toEqual({
      steps: [
        { id: 'a2', task: 'task A', dependsOn: [] },
        { id: 'b', task: 'task B from $a2', dependsOn: ['a2'] },
      ],
    });
    expect(payload.diff).toEqual({ added: [], removed: [], changed: [] });
    expect(second.executor.calls).toBe(1);
  });
});
