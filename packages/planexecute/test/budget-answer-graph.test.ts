import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { tool, type AgentEvent } from '@replan/core';
import { callTools } from '@replan/core/testing';
import { SessionKeys, type GraphStep } from '@replan/planexecute';
import { collect, lastText, respondCall } from './support.js';
import { graphCall, graphHarness, graphPairs } from './graph-support.js';
import { streamingHarness } from './streaming-plan-support.js';

function workTool() {
  const calls: string[] = [];
  const t = tool({
    name: 'work',
    description: 'does the work of a step',
    parameters: z.object({ q: z.string() }),
    execute: ({ q }) => {
      calls.push(q);
      return `worked ${q}`;
    },
  });
  return { tool: t, calls };
}

const wave = graphCall(['a', 'task a', []], ['b', 'task b', []], ['c', 'task c', []], ['d', 'task d', ['a', 'b', 'c']]);
const withTool = (id: string) => [callTools({ name: 'work', args: { q: id } }), `${id} done`];
const steps = { 'task a': withTool('a'), 'task b': withTool('b'), 'task c': withTool('c'), 'task d': ['d done'] };
const isToolResult = (e: AgentEvent) => e.message?.content.some((b) => b.type === 'tool_result') === true;

describe("limits.onExhausted: 'answer' (graph plans)", () => {
  it('budget exhausted mid-graph with steps running: they stop at their next model call, none starts, the replanner answers', async () => {
    const work = workTool();
    const h = graphHarness({ planner: [wave], steps, tools: [work.tool], replanner: [respondCall('what a, b or c found')] });
    // planner + the first call of a, b, c + one second call = 5; the 6th is the reserve (one call).
    const { result, events } = await collect(
      h.runner.run({ userId: 'u', input: 'go', limits: { maxModelCalls: 6, onExhausted: 'answer' } }),
    );
    expect(result.status).toBe('completed');
    expect(result.output).toBe('what a, b or c found');
    expect(result.partial).toBe(true);
    expect(result.modelCalls).toBe(6); // never past the limit
    // Running steps were not aborted: every tool call finished and was stored.
    expect(work.calls.sort()).toEqual(['a', 'b', 'c']);
    expect(events.filter(isToolResult)).toHaveLength(3);
    // One of a, b, c got the last work call and finished; the other two stopped; d never started.
    const done = graphPairs(await h.state(result.sessionId));
    expect(done).toHaveLength(1);
    const finished = done[0]?.[0] as string;
    const notRun = (result.notRun as GraphStep[]).map((s) => s.id);
    expect([...notRun, finished].sort()).toEqual(['a', 'b', 'c', 'd']);
    expect(h.steps.callsFor('task d')).toBe(0);
    expect(events.some((e) => e.error !== undefined)).toBe(false); // no failed step, no run error
    const asked = h.replanner.requests.at(-1);
    expect(asked?.tools?.map((t) => t.name)).toEqual(['respond']);
    expect(lastText(asked)).toContain('"task d"');
  });

  it('streamingPlan: steps started while the plan streams stop the same way; resume returns the stored partial result', async () => {
    const h = streamingHarness({ planner: [wave], steps, replanner: [respondCall('from what ran')] });
    const { result } = await collect(h.runner.run({ userId: 'u', input: 'go', limits: { maxModelCalls: 6, onExhausted: 'answer' } }));
    expect(result).toMatchObject({ status: 'completed', output: 'from what ran', partial: true, modelCalls: 6 });
    // Which steps got their calls depends on how fast the plan streams; every step is done or not run, d not run.
    const done = graphPairs(await h.state(result.sessionId)).map(([id]) => id as string);
    const notRun = (result.notRun as GraphStep[]).map((s) => s.id);
    expect([...done, ...notRun].sort()).toEqual(['a', 'b', 'c', 'd']);
    expect(notRun).toContain('d');
    const again = await h.runner.resume({ userId: 'u', sessionId: result.sessionId }).result();
    expect(again).toMatchObject({ status: 'completed', output: 'from what ran', partial: true, notRun: result.notRun });
    expect(h.replanner.calls).toBe(1); // nothing ran again
  });

  it("with 'stop' the same budget ends budget_exceeded mid-graph", async () => {
    const h = graphHarness({ planner: [wave], steps, tools: [workTool().tool], replanner: [respondCall('never')] });
    const { result } = await collect(h.runner.run({ userId: 'u', input: 'go', limits: { maxModelCalls: 6 } }));
    expect(result.status).toBe('budget_exceeded');
    expect(result.partial).toBeUndefined();
  });

  it('a graph step may carry an estimate; the graph replanner sees the budget', async () => {
    const estimated = callTools({
      name: 'plan',
      args: { steps: [{ id: 'a', task: 'task a', dependsOn: [], estimate: { tokens: 500, modelCalls: 2 } }] },
    });
    const h = graphHarness({ planner: [estimated], steps: { 'task a': ['a done'] }, replanner: [respondCall('a done')] });
    const { result } = await collect(h.runner.run({ userId: 'u', input: 'go', limits: { maxModelCalls: 20, onExhausted: 'answer' } }));
    expect(result).toMatchObject({ status: 'completed', output: 'a done' });
    expect(result.partial).toBeUndefined();
    const plan = (await h.state(result.sessionId))[SessionKeys.Plan] as { steps: GraphStep[] };
    expect(plan.steps[0]?.estimate).toEqual({ tokens: 500, modelCalls: 2 });
    expect(lastText(h.replanner.requests[0])).toContain('- model calls: limit 20, used 2, left 18');
  });
});
