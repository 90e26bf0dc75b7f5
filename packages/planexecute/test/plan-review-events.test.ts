import { afterEach, describe, expect, it } from 'vitest';
import { callTools, reply } from '@replan/core/testing';
import { planExecuteEventKind, type PlanExecuteEventKind } from '@replan/planexecute';
import { renderRun } from '@replan/planexecute/terminal';
import { countingTool, planCall, respondCall } from './support.js';
import { fileStore, processOn, removeStores, reviewOf } from './review-support.js';

afterEach(removeStores);

const user = { userId: 'u' };
const options = { review: { plan: true, replans: 'changed' as const } };
const REVIEW_KINDS = new Set(['plan-review', 'plan-reviewed', 'plan-rejected']);

/** A non-TTY target that keeps what was written. */
function capture() {
  let text = '';
  const write = (t: string) => {
    text += t;
  };
  return { out: { write }, lines: () => text.split('\n') };
}

/** The review kinds among the stored events, classified with and without the agent. */
async function reviewKinds(h: ReturnType<typeof processOn>, sessionId: string) {
  const events = await h.events(sessionId);
  const untyped = events.map((e) => planExecuteEventKind(e)).filter((k) => k && REVIEW_KINDS.has(k.kind));
  const typed = events.map((e) => planExecuteEventKind(e, h.agent)).filter((k) => k && REVIEW_KINDS.has(k.kind));
  expect(typed).toEqual(untyped);
  return untyped as PlanExecuteEventKind[];
}

describe('plan review events: classified and rendered', () => {
  it('a review, a rejection, an edit, a revision with its diff and an approval', async () => {
    const store = await fileStore();
    const first = processOn(store, { planner: [planCall(['a', 'b'])] }, options);
    const run1 = capture();
    const stopped = await renderRun(first.runner.run({ ...user, input: 'go' }), { out: run1.out });
    const review1 = reviewOf(stopped);
    expect(run1.lines().slice(0, 9)).toEqual([
      '├─ Plan',
      '│   1. a',
      '│   2. b',
      '├─ Review the plan (planner): the run waits for an answer',
      `│   answer ${review1.id} with one of:`,
      '│     { approve: true }',
      '│     { edit: plan }  e.g. {"steps":["a","b"]}',
      '│     { reject: "feedback for the planner" }',
      '',
    ]);
    expect(run1.lines()).toContain('status interrupted · 1 model calls · tokens 10 in / 5 out');

    // Reject: the planner plans again and the new plan is reviewed.
    const second = processOn(store, { planner: [planCall(['a', 'b', 'c'])] }, options);
    const run2 = capture();
    const again = await renderRun(
      second.runner.resume({ ...user, sessionId: stopped.sessionId, values: { [review1.id]: { reject: 'add c' } } }),
      {
        out: run2.out,
      },
    );
    const review2 = reviewOf(again);
    expect(run2.lines().slice(0, 2)).toEqual(['├─ Plan rejected add c (planning again with this feedback)', '├─ Plan']);

    // Edit: the edited plan runs; the replanner rewrites its second step, so the revision is reviewed with its diff.
    const third = processOn(store, { executor: [reply('A')], replanner: [planCall(['b3', 'c3'])] }, options);
    const run3 = capture();
    const revised = await renderRun(
      third.runner.resume({ ...user, sessionId: stopped.sessionId, values: { [review2.id]: { edit: { steps: ['a', 'b2'] } } } }),
      { out: run3.out },
    );
    const review3 = reviewOf(revised);
    const text3 = run3.lines().map((l) => l.replace(/\d+(\.\d+)? (ms|s)\b/g, 'T'));
    expect(text3.slice(0, 13)).toEqual([
      '├─ Plan edited (this plan runs instead)',
      '│   1. a',
      '│   2. b2',
      '├─ Step 1 a',
      '│  └─ done T · 15 tokens A',
      '├─ Revised plan (the replanner changed the remaining steps)',
      '│   2. b3',
      '│   3. c3',
      '├─ Review the revised plan (replanner): the run waits for an answer',
      '│   + c3',
      '│   ~ b2 → b3',
      `│   answer ${review3.id} with one of:`,
      '│     { approve: true }',
    ]);

    // Approve: the revision runs. This run's view starts at the approval: it numbers the steps on from
    // the step that ran before, and sees that the next revision keeps the approved steps.
    const fourth = processOn(store, { executor: [reply('B3'), reply('C3')], replanner: [planCall(['c3']), respondCall('done')] }, options);
    const run4 = capture();
    const done = await renderRun(
      fourth.runner.resume({ ...user, sessionId: stopped.sessionId, values: { [review3.id]: { approve: true } } }),
      {
        out: run4.out,
      },
    );
    expect(done.status).toBe('completed');
    expect(run4.lines().slice(0, 5)).toEqual([
      '├─ Plan approved',
      '├─ Step 2 b3',
      expect.stringMatching(/done .* B3$/),
      '├─ Plan continues (the replanner kept the remaining steps)',
      '│   3. c3',
    ]);

    expect(await reviewKinds(fourth, stopped.sessionId)).toEqual([
      { kind: 'plan-review', interruptId: review1.id, role: 'planner', agent: 'planner', plan: { steps: ['a', 'b'] } },
      { kind: 'plan-rejected', plan: { steps: ['a', 'b'] }, feedback: 'add c' },
      { kind: 'plan-review', interruptId: review2.id, role: 'planner', agent: 'planner', plan: { steps: ['a', 'b', 'c'] } },
      { kind: 'plan-reviewed', answer: 'edit', plan: { steps: ['a', 'b2'] } },
      {
        kind: 'plan-review',
        interruptId: review3.id,
        role: 'replanner',
        agent: 'replanner',
        plan: { steps: ['b3', 'c3'] },
        diff: { added: ['c3'], removed: [], changed: [{ before: 'b2', after: 'b3' }] },
      },
      { kind: 'plan-reviewed', answer: 'approve', plan: { steps: ['b3', 'c3'] } },
    ]);
  });

  it('a stalled plan: the reason under review, or the stop without review', async () => {
    const search = countingTool('search');
    const stuck = () => callTools({ name: 'search', args: { q: 'x' } });
    const scripts = { planner: [planCall(['fetch'])], executor: [stuck(), stuck()], replanner: [planCall(['fetch']), planCall(['fetch'])] };
    const base = { tools: [search.tool], stepMaxIterations: 1, maxStalls: 2 };

    const reviewed = processOn(await fileStore(), scripts, { ...base, review: { plan: false, replans: 'never' } });
    const run1 = capture();
    const stopped = await renderRun(reviewed.runner.run({ ...user, input: 'go' }), { out: run1.out });
    const at = run1.lines().indexOf('├─ Review the revised plan (replanner): the run waits for an answer');
    expect(at).toBeGreaterThan(0);
    expect(run1.lines().slice(at + 1, at + 4)).toEqual([
      '│   why stalled: the same plan 2 times in a row without a newly finished step',
      '│   no change to the approved steps still to run',
      `│   answer ${reviewOf(stopped).id} with one of:`,
    ]);

    const unreviewed = processOn(await fileStore(), scripts, base);
    const run2 = capture();
    const failed = await renderRun(unreviewed.runner.run({ ...user, input: 'go' }), { out: run2.out });
    expect(failed.status).toBe('failed');
    expect(run2.lines().find((l) => l.startsWith('└─ Stopped'))).toMatch(
      /^└─ Stopped PlanStalledError: .*the same plan 2 times in a row.*"fetch"/,
    );
  });
});
