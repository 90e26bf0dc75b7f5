import { InMemorySessionStore, Runner, tool } from '@replan/core';
import { callTools, reply, ScriptedModel } from '@replan/core/testing';
import { createPlanExecuteAgent } from '@replan/planexecute';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { editAnswer, grantText, readPlanReview } from '../web/src/plan-review-form.js';

const payAnn = { task: 'pay ann', tools: ['pay'], args: { pay: { to: 'ann' } } };

describe('a plan with grants in the studio page', () => {
  it('reads a linear step with tools as a linear step, shows what it grants, and keeps its tools through an edit', async () => {
    const pay = tool({
      name: 'pay',
      description: 'Pays',
      parameters: z.object({ to: z.string() }),
      needsApproval: true,
      execute: ({ to }) => `paid ${to}`,
    });
    const agent = createPlanExecuteAgent({
      plannerModel: new ScriptedModel({ responses: [callTools({ name: 'plan', args: { steps: [payAnn] } })] }),
      executorModel: new ScriptedModel({ responses: [callTools({ name: 'pay', args: { to: 'ann' }, id: 'p1' }), reply('paid')] }),
      replannerModel: new ScriptedModel({ responses: [callTools({ name: 'respond', args: { response: 'done' } })] }),
      tools: [pay],
      review: { plan: true, grants: true },
    });
    const store = new InMemorySessionStore();
    const runner = new Runner({ agent, appName: 'grants', sessionStore: store });
    const stopped = await runner.run({ userId: 'ana', sessionId: 's', input: 'Pay Ann.' }).result();
    const interrupt = stopped.interrupts[0]!;
    const review = readPlanReview(JSON.stringify(interrupt.payload))!;
    expect(review.mode).toBe('linear');
    expect(review.steps).toEqual([{ id: '', task: 'pay ann', dependsOn: '', tools: ['pay'], args: { pay: { to: 'ann' } } }]);
    expect(grantText(review.steps[0])).toBe(' · may call pay {"to":"ann"}');

    const edited = editAnswer(review.mode, [{ ...review.steps[0]!, task: 'pay ann today' }]);
    expect(edited).toEqual({ edit: { steps: [{ ...payAnn, task: 'pay ann today' }] } });
    const done = await runner.resume({ userId: 'ana', sessionId: 's', values: { [interrupt.id]: edited } }).result();
    expect(done.status).toBe('completed');
    const events = (await store.get({ appName: 'grants', userId: 'ana', id: 's' }))?.events ?? [];
    const paid = events.find((e) => e.message?.content.some((b) => b.type === 'tool_result'));
    expect(paid?.meta?.grantedBy).toBe(interrupt.id);
  });
});
