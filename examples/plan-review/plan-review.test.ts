import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { planGrantDemo } from './trip-grant.js';
import { planReviewDemo } from './trip-review.js';

let dir: string | undefined;
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('examples/plan-review', () => {
  it('approve runs the plan, edit runs the edited plan, reject plans again and runs the approved new plan', async () => {
    dir = await mkdtemp(join(tmpdir(), 'replan-plan-review-test-'));
    const [approve, edit, reject] = await planReviewDemo(dir);
    expect(approve).toEqual({
      answer: 'approve',
      reviewed: [['Find flights to Lisbon', 'Book the cheapest option']],
      ran: ['Find flights to Lisbon', 'Book the cheapest option'],
      output: 'Your trip to Lisbon is booked.',
    });
    expect(edit?.ran).toEqual(['Find flights to Lisbon', 'Find trains to Lisbon', 'Book the cheapest option']);
    expect(reject?.reviewed).toEqual([
      ['Find flights to Lisbon', 'Book the cheapest option'],
      ['Find flights to Lisbon', 'Find trains to Lisbon', 'Book the cheapest option'],
    ]);
    expect(reject?.ran).toEqual(['Find flights to Lisbon', 'Find trains to Lisbon', 'Book the cheapest option']);
  });

  it('a grant: the booking the approved plan names runs without asking; another train asks again', async () => {
    dir = await mkdtemp(join(tmpdir(), 'replan-plan-grant-test-'));
    const [granted, outside] = await planGrantDemo(dir);
    expect(granted?.asked).toEqual(['plan_review']);
    expect(granted?.grantedBy).toMatch(/:plan_review$/);
    expect(granted?.output).toBe('Done: Booked 1 seat(s) on the Night train 21:40.');
    expect(outside?.asked).toEqual(['plan_review', 'approval']);
    expect(outside?.grantedBy).toBeUndefined();
    expect(outside?.output).toBe('Done: Booked 1 seat(s) on the Sleeper 23:10.');
  });
});
