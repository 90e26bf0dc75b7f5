import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type AgentEvent, type RunResult, tool } from '@replan/core';
import { callTools, reply } from '@replan/core/testing';
import type { PlanReviewOptions, PlanReviewPayload } from '@replan/planexecute';
import { planCall, respondCall } from './support.js';
import { fileStore, processOn, removeStores, reviewOf } from './review-support.js';

afterEach(removeStores);

const user = { userId: 'u' };

function payTool(ran: string[]) {
  return tool({
    name: 'pay',
    description: 'Pays someone',
    parameters: z.object({ to: z.string(), amount: z.number() }),
    needsApproval: true,
    execute: ({ to, amount }) => (ran.push(`pay ${to} ${amount}`), `paid ${to}`),
  });
}

const pay = (to: string, id: string) => callTools({ name: 'pay', args: { to, amount: 1 }, id });
const payStep = (to: string) => ({ task: `pay ${to}`, tools: ['pay'], args: { pay: { to } } });
const grantOf = (events: readonly AgentEvent[], id: string) =>
  events.find((e) => e.message?.content.some((b) => b.type === 'tool_result' && b.toolCallId === id))?.meta?.grantedBy;

/** Answers the open review of `stopped` with approve in the process `p`. */
const approve = (p: ReturnType<typeof processOn>, stopped: RunResult) =>
  p.runner.resume({ ...user, sessionId: stopped.sessionId, values: { [reviewOf(stopped).id]: { approve: true } } }).result();

describe('plan grants across revisions', () => {
  it('a revision that changes a granted step is reviewed again, even with replans: never; the new grant covers it', async () => {
    const review: PlanReviewOptions = { plan: true, grants: true, replans: 'never' };
    const store = await fileStore();
    const ran: string[] = [];
    const p = processOn(
      store,
      {
        planner: [planCall([payStep('ann'), payStep('carl')])],
        executor: [pay('ann', 'p1'), reply('paid ann'), pay('dave', 'p2'), reply('paid dave')],
        replanner: [planCall([payStep('dave')]), respondCall('done')],
      },
      { review, tools: [payTool(ran)] },
    );
    const stopped = await p.runner.run({ ...user, input: 'pay' }).result();
    const first = reviewOf(stopped);
    const again = await approve(p, stopped);
    const second = reviewOf(again);
    expect(second.id).not.toBe(first.id);
    const payload = second.payload as PlanReviewPayload;
    expect(payload.reason).toMatch(/name tools to approve/);
    expect(payload.diff?.changed).toEqual([{ before: payStep('carl'), after: payStep('dave') }]);
    expect(ran).toEqual(['pay ann 1']); // nothing of the changed step ran before its review

    const done = await approve(p, again);
    expect(done.status).toBe('completed');
    expect(ran).toEqual(['pay ann 1', 'pay dave 1']);
    const events = await p.events(stopped.sessionId);
    expect([grantOf(events, 'p1'), grantOf(events, 'p2')]).toEqual([first.id, second.id]);
  });

  it('a revision that only re-estimates a granted step is not reviewed and keeps its grant', async () => {
    const store = await fileStore();
    const ran: string[] = [];
    const estimated = (to: string, tokens: number) => ({ ...payStep(to), estimate: { tokens } });
    const p = processOn(
      store,
      {
        planner: [planCall([payStep('ann'), estimated('carl', 100)])],
        executor: [pay('ann', 'p1'), reply('a'), pay('carl', 'p2'), reply('c')],
        replanner: [planCall([estimated('carl', 300)]), respondCall('done')],
      },
      { review: { plan: true, grants: true }, tools: [payTool(ran)] },
    );
    const stopped = await p.runner.run({ ...user, input: 'pay' }).result();
    const done = await approve(p, stopped);
    expect(done.status).toBe('completed');
    expect(ran).toEqual(['pay ann 1', 'pay carl 1']);
    expect(grantOf(await p.events(stopped.sessionId), 'p2')).toBe(reviewOf(stopped).id);
  });

  it('a revision that adds a step is reviewed; the unchanged granted step keeps its first grant', async () => {
    const store = await fileStore();
    const ran: string[] = [];
    const p = processOn(
      store,
      {
        planner: [planCall([payStep('ann'), payStep('carl')])],
        executor: [pay('ann', 'p1'), reply('a'), pay('carl', 'p2'), reply('c'), pay('dan', 'p3'), reply('d')],
        replanner: [planCall([payStep('carl'), payStep('dan')]), planCall([payStep('dan')]), respondCall('done')],
      },
      { review: { plan: true, grants: true }, tools: [payTool(ran)] },
    );
    const stopped = await p.runner.run({ ...user, input: 'pay' }).result();
    const first = reviewOf(stopped);
    const again = await approve(p, stopped);
    const second = reviewOf(again);
    expect((second.payload as PlanReviewPayload).diff?.added).toEqual([payStep('dan')]);
    const done = await approve(p, again);
    expect(done.status).toBe('completed');
    const events = await p.events(stopped.sessionId);
    expect([grantOf(events, 'p1'), grantOf(events, 'p2'), grantOf(events, 'p3')]).toEqual([first.id, first.id, second.id]);
    expect(ran).toEqual(['pay ann 1', 'pay carl 1', 'pay dan 1']);
  });

  it('graph mode: a step runs its granted call unasked; a step that does not name the tool asks', async () => {
    const store = await fileStore();
    const ran: string[] = [];
    const withTools = {
      steps: [
        { id: 'a', task: 'pay ann', dependsOn: [], tools: ['pay'], args: { pay: { to: 'ann' } } },
        { id: 'b', task: 'pay ann again after $a', dependsOn: ['a'] },
      ],
    };
    const first = processOn(
      store,
      { planner: [callTools({ name: 'plan', args: withTools })] },
      { mode: 'graph', review: { plan: true, grants: true }, tools: [payTool(ran)] },
    );
    const stopped = await first.runner.run({ ...user, input: 'pay' }).result();
    const review = reviewOf(stopped);

    const second = processOn(
      store,
      { executor: [pay('ann', 'p1'), reply('paid'), pay('ann', 'p2')] },
      { mode: 'graph', review: { plan: true, grants: true }, tools: [payTool(ran)] },
    );
    const asked = await approve(second, stopped);
    expect(ran).toEqual(['pay ann 1']);
    expect(asked.interrupts.map((i) => i.id)).toEqual(['p2:approval']);
    expect(grantOf(await second.events(stopped.sessionId), 'p1')).toBe(review.id);
  });
});

describe('plan grants in the graph executor prompt', () => {
  it("shows a step's granted tools and stated args under its task, quoted; a step naming none shows none", async () => {
    const store = await fileStore();
    const ran: string[] = [];
    const steps = [
      { id: 'a', task: 'pay ann', dependsOn: [], tools: ['pay'], args: { pay: { to: 'ann' } } },
      { id: 'b', task: 'say thanks after $a', dependsOn: ['a'] },
    ];
    const p = processOn(
      store,
      {
        planner: [callTools({ name: 'plan', args: { steps } })],
        executor: [reply('paid'), reply('thanks')],
        replanner: [respondCall('ok')],
      },
      { mode: 'graph', review: { plan: true, grants: true }, tools: [payTool(ran)] },
    );
    const done = await approve(p, await p.runner.run({ ...user, input: 'pay' }).result());
    expect(done.status).toBe('completed');
    const lastText = (i: number) => {
      const messages = p.executor.requests[i]?.messages ?? [];
      return (messages.at(-1)?.content ?? []).map((b) => (b.type === 'text' ? b.text : '')).join('');
    };
    expect(lastText(0)).toMatch(
      /## YOUR TASK\npay ann\n\nTools this step names \(approved with the plan\): .*\["pay"\].*\nArguments stated per tool: .*\{"pay":\{"to":"ann"\}\}/,
    );
    expect(lastText(1)).toContain('say thanks after');
    expect(lastText(1)).not.toContain('Tools this step names');
  });
});

describe('plan grants in the graph replanner prompt', () => {
  it('shows a step still to run with its tools and args, quoted, so a revision can keep it as approved', async () => {
    const store = await fileStore();
    const ran: string[] = [];
    const steps = [
      { id: 'a', task: 'look up ann', dependsOn: [] },
      { id: 'b', task: 'pay ann after $a', dependsOn: ['a'], tools: ['pay'], args: { pay: { to: 'ann' } } },
    ];
    const p = processOn(
      store,
      { planner: [callTools({ name: 'plan', args: { steps } })], executor: [new Error('search is down')] },
      { mode: 'graph', review: { plan: true, grants: true }, tools: [payTool(ran)] },
    );
    const stopped = await p.runner.run({ ...user, input: 'pay' }).result();
    await approve(p, stopped).catch(() => undefined);
    const prompt = p.replanner.requests[0]?.messages
      .map((m) => m.content.map((b) => (b.type === 'text' ? b.text : '')).join(''))
      .join('\n');
    expect(prompt).toMatch(/- \[not run\] b: .*pay ann after \$a.* \(after a\) tools: .*\["pay"\].* args: .*\{"pay":\{"to":"ann"\}\}/);
  });
});
