import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ConfigurationError, messageText, ReActAgent, tool } from '@replan/core';
import { reply, ScriptedModel } from '@replan/core/testing';
import { createPlanExecuteAgent, InvalidPlanReviewAnswerError, PlanningError } from '@replan/planexecute';
import { planCall, respondCall } from './support.js';
import { fileStore, processOn, removeStores, reviewOf } from './review-support.js';

afterEach(removeStores);

const user = { userId: 'u' };
const review = { plan: true, grants: true };
const pay = tool({
  name: 'pay',
  description: 'Pays',
  parameters: z.object({ to: z.string() }),
  needsApproval: true,
  execute: () => 'paid',
});
const wire = { task: 'wire money', tools: ['wire'] };

describe('plan grants: bad input', () => {
  it('a plan naming a tool the executor does not have goes back to the planner, then fails with PlanningError', async () => {
    const store = await fileStore();
    const fixed = processOn(store, { planner: [planCall([wire]), planCall([{ task: 'pay', tools: ['pay'] }])] }, { review, tools: [pay] });
    const stopped = await fixed.runner.run({ ...user, input: 'go' }).result();
    expect(reviewOf(stopped).payload).toMatchObject({ plan: { steps: [{ task: 'pay', tools: ['pay'] }] } });
    const repair = fixed.planner.requests[1]?.messages.map(messageText).join('\n');
    expect(repair).toMatch(/step 1 names tool\(s\) "wire" that the executor does not have \(its tools: "pay"\)/);

    const stubborn = processOn(store, { planner: [planCall([wire]), planCall([wire]), planCall([wire])] }, { review, tools: [pay] });
    const failed = await stubborn.runner.run({ ...user, input: 'go' }).result();
    expect(failed.status).toBe('failed');
    expect(failed.error).toBeInstanceOf(PlanningError);
    expect(failed.error?.message).toMatch(/"wire"/);
  });

  it('args for a tool the step does not list is a planning problem too', async () => {
    const store = await fileStore();
    const p = processOn(
      store,
      { planner: [planCall([{ task: 'pay', tools: [], args: { pay: { to: 'x' } } }]), planCall(['pay'])] },
      { review, tools: [pay] },
    );
    await p.runner.run({ ...user, input: 'go' }).result();
    expect(p.planner.requests[1]?.messages.map(messageText).join('\n')).toMatch(/gives "args" for "pay", which its "tools" do not list/);
  });

  it("refuses an edited plan whose tools are not the executor's, naming them; nothing stored, the review stays open", async () => {
    const store = await fileStore();
    const first = processOn(store, { planner: [planCall(['pay ann'])] }, { review, tools: [pay] });
    const stopped = await first.runner.run({ ...user, input: 'go' }).result();
    const open = reviewOf(stopped);
    const before = (await first.events(stopped.sessionId)).length;

    const second = processOn(store, { executor: [reply('paid')], replanner: [respondCall('done')] }, { review, tools: [pay] });
    const resume = (edit: unknown) =>
      second.runner.resume({ ...user, sessionId: stopped.sessionId, values: { [open.id]: { edit } } }).result();
    const refused = resume({ steps: [wire, { task: 'more', tools: ['pay', 'mint'] }] });
    await expect(refused).rejects.toThrow(InvalidPlanReviewAnswerError);
    await expect(resume({ steps: [wire] })).rejects.toThrow(/step 1 names tool\(s\) "wire" that the executor does not have/);
    expect((await second.events(stopped.sessionId)).length).toBe(before);
    expect(second.executor.calls).toBe(0);

    const done = await resume({ steps: [{ task: 'pay ann', tools: ['pay'] }] });
    expect(done.status).toBe('completed');
  });

  it('is a ConfigurationError without plan review, with an executor of ones own, or when not a boolean', () => {
    const model = new ScriptedModel();
    expect(() => createPlanExecuteAgent({ model, tools: [pay], review: { plan: false, grants: true } })).toThrow(
      /review.grants needs review.plan/,
    );
    const executor = new ReActAgent({ name: 'mine', model, tools: [pay] });
    expect(() => createPlanExecuteAgent({ model, executor, review })).toThrow(
      /review.grants needs an executor built here or with createExecutor/,
    );
    expect(() => createPlanExecuteAgent({ model, review: { plan: true, grants: 'yes' as never } })).toThrow(ConfigurationError);
  });
});
