import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ConfigurationError, messageText, ReActAgent, tool } from '@replan/core';
import { reply, ScriptedModel } from '@replan/core/testing';
import { createPlanExecuteAgent, PlanningError } from '@replan/planexecute';
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

describe('plan grants: what the planner is told', () => {
  it.each([
    ['linear', undefined],
    ['graph', 'graph'],
  ] as const)(
    '%s mode: the plan tool offers tools and args per step, and the prompt says what approving them does, only with grants',
    async (_name, mode) => {
      const store = await fileStore();
      const on = processOn(store, { planner: [planCall([])] }, { review, tools: [pay], ...(mode ? { mode } : {}) });
      const off = processOn(store, { planner: [planCall([])] }, { review: { plan: true }, tools: [pay], ...(mode ? { mode } : {}) });
      for (const p of [on, off]) await p.runner.run({ ...user, input: 'go' }).result();
      const planTool = (p: typeof on) => JSON.stringify(p.planner.requests[0]?.tools?.find((t) => t.name === 'plan'));
      const system = (p: typeof on) => messageText(p.planner.requests[0]?.messages[0]);
      expect(planTool(on)).toMatch(/"tools":\{[^}]*"type":"array"/);
      expect(planTool(on)).toContain('"args"');
      expect(system(on)).toContain('approving the plan approves those calls in that step');
      expect(planTool(off)).not.toContain('"args"');
      expect(system(off)).not.toContain('approving the plan approves');
    },
  );
});

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
    await expect(refused).rejects.toMatchObject({ name: 'ResumeError', kind: 'invalid_value' });
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
