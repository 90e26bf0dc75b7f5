import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type AgentEvent, tool } from '@replan/core';
import { callTools, reply } from '@replan/core/testing';
import type { PlanReviewOptions } from '@replan/planexecute';
import { renderRun } from '@replan/planexecute/terminal';
import { planCall, respondCall } from './support.js';
import { fileStore, processOn, removeStores, reviewOf } from './review-support.js';

afterEach(removeStores);

const user = { userId: 'u' };
const grants: PlanReviewOptions = { plan: true, grants: true };

/** `pay` and `refund` need approval; every call that ran is in `ran`. */
function payTools() {
  const ran: string[] = [];
  const pay = tool({
    name: 'pay',
    description: 'Pays someone',
    parameters: z.object({ to: z.string(), amount: z.number() }),
    needsApproval: true,
    execute: ({ to, amount }) => (ran.push(`pay ${to} ${amount}`), `paid ${to}`),
  });
  const refund = tool({
    name: 'refund',
    description: 'Refunds someone',
    parameters: z.object({ to: z.string() }),
    needsApproval: true,
    execute: ({ to }) => (ran.push(`refund ${to}`), `refunded ${to}`),
  });
  return { ran, tools: [pay, refund] };
}

const pay = (to: string, amount: number, id: string) => callTools({ name: 'pay', args: { to, amount }, id });
const payAnn = { task: 'pay ann', tools: ['pay'], args: { pay: { to: 'ann' } } };

/** The stored result event of tool call `id`. */
const resultOf = (events: readonly AgentEvent[], id: string) =>
  events.find((e) => e.message?.content.some((b) => b.type === 'tool_result' && b.toolCallId === id));

describe('plan grants, linear mode (each answer resumed by a new Runner on the file store)', () => {
  it('runs a granted call without asking, in a new process, and records the review that granted it', async () => {
    const store = await fileStore();
    const { ran, tools } = payTools();
    const first = processOn(store, { planner: [planCall([payAnn])] }, { review: grants, tools });
    const stopped = await first.runner.run({ ...user, input: 'pay ann 5' }).result();
    const review = reviewOf(stopped);

    // Another process answers: the grant is read from the stored review, not from memory.
    const second = processOn(
      store,
      { executor: [pay('ann', 5, 'p1'), reply('paid')], replanner: [respondCall('done')] },
      { review: grants, tools },
    );
    const done = await second.runner.resume({ ...user, sessionId: stopped.sessionId, values: { [review.id]: { approve: true } } }).result();
    expect(done.status).toBe('completed');
    expect(ran).toEqual(['pay ann 5']);
    expect(resultOf(await second.events(stopped.sessionId), 'p1')?.meta?.grantedBy).toBe(review.id);
  });

  it.each([
    ['other arguments', pay('bob', 5, 'p1')],
    ['another tool', callTools({ name: 'refund', args: { to: 'ann' }, id: 'p1' })],
  ])('asks for a call just outside the grant: %s', async (_what, call) => {
    const store = await fileStore();
    const { ran, tools } = payTools();
    const first = processOn(store, { planner: [planCall([payAnn])], executor: [call] }, { review: grants, tools });
    const stopped = await first.runner.run({ ...user, input: 'go' }).result();
    const asked = await first.runner
      .resume({ ...user, sessionId: stopped.sessionId, values: { [reviewOf(stopped).id]: { approve: true } } })
      .result();
    expect(asked.status).toBe('interrupted');
    expect(asked.interrupts.map((i) => [i.id, i.reason])).toEqual([['p1:approval', 'approval']]);
    expect(ran).toEqual([]);
  });

  it('asks for the granted tool in another step', async () => {
    const store = await fileStore();
    const { ran, tools } = payTools();
    const first = processOn(
      store,
      {
        planner: [planCall([payAnn, 'pay ann again'])],
        executor: [pay('ann', 5, 'p1'), reply('paid'), pay('ann', 5, 'p2')],
        replanner: [planCall(['pay ann again'])],
      },
      { review: grants, tools },
    );
    const stopped = await first.runner.run({ ...user, input: 'go' }).result();
    const asked = await first.runner
      .resume({ ...user, sessionId: stopped.sessionId, values: { [reviewOf(stopped).id]: { approve: true } } })
      .result();
    expect(ran).toEqual(['pay ann 5']);
    expect(asked.interrupts.map((i) => i.id)).toEqual(['p2:approval']);
  });
});

describe('plan grants with a plan schema of ones own', () => {
  it('grants what its steps name in their own tools and args fields', async () => {
    const store = await fileStore();
    const { ran, tools } = payTools();
    const planSchema = z.object({
      steps: z.array(
        z.object({ task: z.string(), tools: z.array(z.string()).optional(), args: z.record(z.string(), z.unknown()).optional() }),
      ),
      owner: z.string(),
    });
    const options = { review: grants, tools, planSchema };
    const first = processOn(store, { planner: [planCall([payAnn], { owner: 'ops' })] }, options);
    const stopped = await first.runner.run({ ...user, input: 'pay' }).result();
    const review = reviewOf(stopped);
    const second = processOn(store, { executor: [pay('ann', 5, 'p1'), reply('paid')], replanner: [respondCall('done')] }, options);
    const done = await second.runner.resume({ ...user, sessionId: stopped.sessionId, values: { [review.id]: { approve: true } } }).result();
    expect(done.status).toBe('completed');
    expect(ran).toEqual(['pay ann 5']);
    expect(resultOf(await second.events(stopped.sessionId), 'p1')?.meta?.grantedBy).toBe(review.id);
  });
});

describe('plan grants in renderRun', () => {
  it('shows which plan review granted a call', async () => {
    const store = await fileStore();
    const { tools } = payTools();
    const first = processOn(store, { planner: [planCall([payAnn])] }, { review: grants, tools });
    const stopped = await first.runner.run({ ...user, input: 'pay ann 5' }).result();
    const review = reviewOf(stopped);
    const second = processOn(
      store,
      { executor: [pay('ann', 5, 'p1'), reply('paid')], replanner: [respondCall('done')] },
      { review: grants, tools },
    );
    const tree = capture();
    await renderRun(second.runner.resume({ ...user, sessionId: stopped.sessionId, values: { [review.id]: { approve: true } } }), tree);
    expect(tree.text()).toContain(`├─ granted pay by plan review ${review.id}`);
    // The reviewer was shown what approving the plan lets run unasked.
    const shown = capture();
    await renderRun(
      processOn(store, { planner: [planCall([payAnn])] }, { review: grants, tools }).runner.run({ ...user, input: 'again' }),
      shown,
    );
    expect(shown.text()).toContain('1. pay ann · may call pay {"to":"ann"}');
  });
});

/** A non-TTY target for `renderRun` that keeps what was written. */
function capture() {
  const parts: string[] = [];
  return { out: { write: (t: string) => parts.push(t) }, text: () => parts.join('') };
}
