import { afterEach, describe, expect, it } from 'vitest';
import { planCall } from './support.js';
import { fileStore, processOn, removeStores, reviewOf } from './review-support.js';

afterEach(removeStores);

const user = { userId: 'u' };
const review = { review: { plan: true } } as const;

describe('plan review: new input instead of an answer', () => {
  it('is refused while the review is open; with abandon: true the new input is planned and reviewed anew', async () => {
    const store = await fileStore();
    const first = processOn(store, { planner: [planCall(['a'])] }, review);
    const stopped = await first.runner.run({ ...user, input: 'go' }).result();
    const open = reviewOf(stopped);
    const key = { ...user, sessionId: stopped.sessionId };
    expect(await first.runner.pending(key)).toEqual([expect.objectContaining({ id: open.id, reason: 'plan_review' })]);
    await expect(first.runner.run({ ...key, input: 'something else' }).result()).rejects.toThrow(/plan_review/);

    const second = processOn(store, { planner: [planCall(['b'])] }, review);
    const next = reviewOf(await second.runner.run({ ...key, input: 'something else', abandon: true }).result());
    expect(next.id).not.toBe(open.id);
    expect(await second.runner.pending(key)).toEqual([expect.objectContaining({ id: next.id })]);
  });
});
