import { InMemorySessionStore } from '@replan/core';
import { describe, expect, it } from 'vitest';
import { approveAnswer, editAnswer, readPlanReview, rejectAnswer } from '../web/src/plan-review-form.js';
import { reviewScenario } from './support/scenarios.js';

describe('plan review in the studio page: what it reads and what it sends', () => {
  it('reads a real plan_review interrupt and sends answers the run accepts', async () => {
    const store = new InMemorySessionStore();
    const runner = reviewScenario(store);
    const stopped = await runner.run({ userId: 'ana', sessionId: 'r1', input: 'Plan the offsite' }).result();
    const interrupt = stopped.interrupts.find((i) => i.reason === 'plan_review')!;
    const review = readPlanReview(JSON.stringify(interrupt.payload, null, 2))!;
    expect(review).toMatchObject({ mode: 'linear', role: 'planner', diff: [] });
    expect(review.steps.map((s) => s.task)).toEqual(['Draft the agenda', 'Book the room']);
    const edited = editAnswer(review.mode, [{ ...review.steps[0]!, task: 'Draft a short agenda' }]);
    expect(edited).toEqual({ edit: { steps: ['Draft a short agenda'] } });
    const done = await runner.resume({ userId: 'ana', sessionId: 'r1', values: { [interrupt.id]: edited } }).result();
    expect(done.status).toBe('completed');
    expect(JSON.stringify((await store.get({ appName: 'review-app', userId: 'ana', id: 'r1' }))?.events)).toContain(
      'did Draft a short agenda',
    );
  });

  it('builds approve, reject and graph edits in the answer shapes', () => {
    expect(approveAnswer()).toEqual({ approve: true });
    expect(rejectAnswer('  invite the team  ')).toEqual({ reject: 'invite the team' });
    expect(
      editAnswer('graph', [
        { id: ' a ', task: 'Read A', dependsOn: '' },
        { id: 'c', task: 'Compare', dependsOn: 'a, b  x' },
      ]),
    ).toEqual({
      edit: {
        steps: [
          { id: 'a', task: 'Read A', dependsOn: [] },
          { id: 'c', task: 'Compare', dependsOn: ['a', 'b', 'x'] },
        ],
      },
    });
  });

  it('reads a graph revision with its diff and stall reason; anything else is not a review', () => {
    const payload = {
      kind: 'plan_review',
      role: 'replanner',
      agent: 'research',
      plan: { steps: [{ id: 'b', task: 'Read B', dependsOn: ['a'] }] },
      diff: { added: [{ id: 'b', task: 'Read B', dependsOn: ['a'] }], removed: [{ id: 'c', task: 'Old', dependsOn: [] }], changed: [] },
      reason: 'it issued the same plan 3 times',
    };
    const review = readPlanReview(JSON.stringify(payload))!;
    expect(review.mode).toBe('graph');
    expect(review.steps).toEqual([{ id: 'b', task: 'Read B', dependsOn: 'a' }]);
    expect(review.diff).toEqual(['+ b: Read B', '- c: Old']);
    expect(review.reason).toBe('it issued the same plan 3 times');
    expect(readPlanReview('{"question":"budget?"}')).toBeUndefined();
    expect(readPlanReview('not json')).toBeUndefined();
  });
});
