import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type AgentEvent, type Middleware, tool } from '@replan/core';
import { callTools, reply } from '@replan/core/testing';
import { codeTool } from '@replan/code';
import { planCall, respondCall } from './support.js';
import { fileStore, processOn, removeStores, reviewOf } from './review-support.js';

afterEach(removeStores);

const user = { userId: 'u' };

/** `pay` needs approval; it is the executor's tool and a program's (`run_code`). Every payment made is in `ran`. */
function payTools() {
  const ran: string[] = [];
  const pay = tool({
    name: 'pay',
    description: 'Pays someone',
    parameters: z.object({ to: z.string(), amount: z.number() }),
    needsApproval: true,
    execute: ({ to, amount }) => (ran.push(`pay ${to} ${amount}`), `paid ${to}`),
  });
  return { ran, tools: [pay, codeTool({ tools: [pay] })] };
}

const runCode = (program: string) => callTools({ name: 'run_code', args: { program }, id: 'c1' });
const resultOf = (events: readonly AgentEvent[], id: string) =>
  events.find((e) => e.message?.content.some((b) => b.type === 'tool_result' && b.toolCallId === id));

describe('plan grants and code steps: a program calling a granted tool', () => {
  it('the step grant covers the calls of its program that fit it, recorded as granted; a call outside it asks', async () => {
    const store = await fileStore();
    const { ran, tools } = payTools();
    const step = { task: 'pay ann twice', tools: ['pay'], args: { pay: { to: 'ann' } } };
    const program =
      "await tools.pay({ to: 'ann', amount: 1 }); await tools.pay({ to: 'ann', amount: 2 }); await tools.pay({ to: 'bob', amount: 3 });";
    const p = processOn(
      store,
      { planner: [planCall([step])], executor: [runCode(program)] },
      { review: { plan: true, grants: true }, tools },
    );
    const stopped = await p.runner.run({ ...user, input: 'pay' }).result();
    const review = reviewOf(stopped);
    const asked = await p.runner.resume({ ...user, sessionId: stopped.sessionId, values: { [review.id]: { approve: true } } }).result();
    // Both calls to ann ran unasked under the plan's approval; the call to bob is outside the grant.
    expect(ran).toEqual(['pay ann 1', 'pay ann 2']);
    expect(asked.status).toBe('interrupted');
    expect(asked.interrupts.map((i) => [i.id, i.reason])).toEqual([['c1#2:approval', 'approval']]);
    const events = await p.events(stopped.sessionId);
    expect([resultOf(events, 'c1#0')?.meta?.grantedBy, resultOf(events, 'c1#1')?.meta?.grantedBy]).toEqual([review.id, review.id]);
  });

  it('a step that does not name the tool grants nothing to its program', async () => {
    const store = await fileStore();
    const { ran, tools } = payTools();
    const p = processOn(
      store,
      {
        planner: [planCall(['pay ann'])],
        executor: [runCode("await tools.pay({ to: 'ann', amount: 1 });")],
        replanner: [respondCall('x')],
      },
      { review: { plan: true, grants: true }, tools },
    );
    const stopped = await p.runner.run({ ...user, input: 'pay' }).result();
    const asked = await p.runner
      .resume({ ...user, sessionId: stopped.sessionId, values: { [reviewOf(stopped).id]: { approve: true } } })
      .result();
    expect(ran).toEqual([]);
    expect(asked.interrupts.map((i) => i.id)).toEqual(['c1#0:approval']);
  });

  it('after the approval of the call outside the grant, the program finishes and the granted calls are not run again', async () => {
    const store = await fileStore();
    const { ran, tools } = payTools();
    const step = { task: 'pay', tools: ['pay'], args: { pay: { to: 'ann' } } };
    const program = "await tools.pay({ to: 'ann', amount: 1 }); await tools.pay({ to: 'bob', amount: 3 }); return 'ok';";
    const p = processOn(
      store,
      { planner: [planCall([step])], executor: [runCode(program), reply('paid both')], replanner: [respondCall('done')] },
      { review: { plan: true, grants: true }, tools },
    );
    const stopped = await p.runner.run({ ...user, input: 'pay' }).result();
    const asked = await p.runner
      .resume({ ...user, sessionId: stopped.sessionId, values: { [reviewOf(stopped).id]: { approve: true } } })
      .result();
    const done = await p.runner.resume({ ...user, sessionId: stopped.sessionId, approvals: { 'c1#1:approval': true } }).result();
    expect(asked.status).toBe('interrupted');
    expect(done.status).toBe('completed');
    expect(ran).toEqual(['pay ann 1', 'pay bob 3']);
  });

  it("the executor's audit middleware sees each granted call of the program run once, and not the call still asking", async () => {
    const store = await fileStore();
    const { ran, tools } = payTools();
    const seen: string[] = [];
    const audit: Middleware = {
      name: 'audit',
      async wrapToolCall(next, call) {
        const outcome = await next(call);
        seen.push(`${call.id} ${JSON.stringify(call.args)}`);
        return outcome;
      },
    };
    const step = { task: 'pay ann', tools: ['pay'], args: { pay: { to: 'ann' } } };
    const program = "await tools.pay({ to: 'ann', amount: 1 }); await tools.pay({ to: 'bob', amount: 3 });";
    const p = processOn(
      store,
      { planner: [planCall([step])], executor: [runCode(program)] },
      { review: { plan: true, grants: true }, tools, middleware: { executor: [audit] } },
    );
    const stopped = await p.runner.run({ ...user, input: 'pay' }).result();
    const asked = await p.runner
      .resume({ ...user, sessionId: stopped.sessionId, values: { [reviewOf(stopped).id]: { approve: true } } })
      .result();
    expect(asked.interrupts.map((i) => i.id)).toEqual(['c1#1:approval']);
    expect(ran).toEqual(['pay ann 1']);
    // The granted call ran unasked through the executor's middleware; bob's call asks, so nothing ran (or was audited) yet.
    expect(seen).toEqual(['c1#0 {"to":"ann","amount":1}']);
    const events = await p.events(stopped.sessionId);
    expect(resultOf(events, 'c1#0')?.meta?.grantedBy).toBe(reviewOf(stopped).id);
  });
});
