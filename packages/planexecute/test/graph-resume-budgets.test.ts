import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { BudgetExceededError, InMemorySessionStore, tool, type AgentEvent } from '@replan/core';
import { callTools } from '@replan/core/testing';
import { SessionKeys, type ExecutedGraphStep } from '@replan/planexecute';
import { collect, respondCall } from './support.js';
import { graphCall, graphHarness, graphPairs } from './graph-support.js';

/** A `work` tool that records its calls; `hang` ids never settle (only an abort ends them). */
function workTool(hang: ReadonlySet<string> = new Set(), onCall: (q: string) => void = () => {}) {
  const calls: string[] = [];
  const t = tool({
    name: 'work',
    description: 'does the work of a step',
    parameters: z.object({ q: z.string() }),
    execute: ({ q }) => {
      calls.push(q);
      onCall(q);
      return hang.has(q) ? new Promise(() => {}) : `worked ${q}`;
    },
  });
  return { tool: t, calls };
}

const wave = graphCall(['a', 'task a', []], ['b', 'task b', []], ['c', 'task c', []], ['d', 'task d', ['a', 'b', 'c']]);
const withTool = (id: string) => [callTools({ name: 'work', args: { q: id } }), `${id} done`];
const steps = { 'task a': withTool('a'), 'task b': withTool('b'), 'task c': withTool('c'), 'task d': ['d done'] };
/** What the resumed steps' model still answers (their tool calls are stored). */
const rest = { 'task a': ['a done'], 'task b': ['b done'], 'task c': ['c done'], 'task d': ['d done'] };
const resultOf = (e: AgentEvent) => e.actions?.stateDelta?.[SessionKeys.ExecutedStep] as ExecutedGraphStep | undefined;
const isToolResult = (e: AgentEvent, q: string) =>
  e.message?.content.some((b) => b.type === 'tool_result' && b.output === `worked ${q}`) === true;

describe('graph resume and budgets', () => {
  it('resumes after an abort in the middle of a parallel wave, re-running only unfinished steps', async () => {
    const store = new InMemorySessionStore();
    const controller = new AbortController();
    let releaseC!: () => void;
    const cHeld = new Promise<void>((r) => (releaseC = r));
    const work = workTool(new Set(['b']));
    const first = graphHarness({
      planner: [wave],
      steps,
      tools: [work.tool],
      store,
      // c's answer after its tool waits: c is mid-step (tool result stored) when the abort comes
      model: { hold: (task, call) => (task === 'task c' && call === 1 ? cHeld : undefined) },
    });
    const run = first.runner.run({ userId: 'u', input: 'go', signal: controller.signal });
    let aDone = false;
    let cWorked = false;
    for await (const event of run) {
      if (resultOf(event)?.id === 'a') aDone = true;
      if (isToolResult(event, 'c')) cWorked = true;
      if (aDone && cWorked && !controller.signal.aborted) controller.abort();
    }
    const stopped = await run.result();
    expect(stopped.status).toBe('aborted');
    expect(work.calls.sort()).toEqual(['a', 'b', 'c']);
    expect(graphPairs(await first.state(stopped.sessionId))).toEqual([['a', 'a done']]);
    releaseC();

    // a new process over the same session: only b (its tool never answered), c (its answer) and d run
    const again = workTool();
    const second = graphHarness({ planner: [], steps: rest, tools: [again.tool], store, replanner: [respondCall('all done')] });
    const { result } = await collect(second.runner.resume({ userId: 'u', sessionId: stopped.sessionId }));
    expect(result.status).toBe('completed');
    expect(result.output).toBe('all done');
    expect(second.planner.calls).toBe(0);
    expect(again.calls).toEqual(['b']); // a's and c's tools are not called again
    expect(['task a', 'task b', 'task c', 'task d'].map((t) => second.steps.callsFor(t))).toEqual([0, 1, 1, 1]);
    const pairs = graphPairs(await second.state(result.sessionId));
    expect(pairs[0]).toEqual(['a', 'a done']);
    expect(pairs.map(([id]) => id).sort()).toEqual(['a', 'b', 'c', 'd']);
    expect(pairs.at(-1)).toEqual(['d', 'd done']);
  });

  it('maxModelCalls hit mid-wave: running steps stop at their next call, budget_exceeded, resumable', async () => {
    const store = new InMemorySessionStore();
    const work = workTool();
    const first = graphHarness({ planner: [wave], steps, tools: [work.tool], store });
    // planner + the first call of a, b and c: each step's second call is over the budget
    const stopped = await collect(first.runner.run({ userId: 'u', input: 'go', limits: { maxModelCalls: 4 } }));
    expect(stopped.result.status).toBe('budget_exceeded');
    expect(stopped.result.error).toBeInstanceOf(BudgetExceededError);
    expect((stopped.result.error as BudgetExceededError).budget).toBe('maxModelCalls');
    expect(work.calls.sort()).toEqual(['a', 'b', 'c']); // every running step finished its tool call
    expect(graphPairs(await first.state(stopped.result.sessionId))).toEqual([]);
    expect(stopped.events.filter((e) => e.error?.name === 'BudgetExceededError')).toHaveLength(1);

    const again = workTool();
    const second = graphHarness({ planner: [], steps: rest, tools: [again.tool], store, replanner: [respondCall('done')] });
    const { result } = await collect(second.runner.resume({ userId: 'u', sessionId: stopped.result.sessionId }));
    expect(result.status).toBe('completed');
    expect(again.calls).toEqual([]);
    expect(['task a', 'task b', 'task c'].map((t) => second.steps.callsFor(t))).toEqual([1, 1, 1]); // only each answer
    expect(
      graphPairs(await second.state(result.sessionId))
        .map(([id]) => id)
        .sort(),
    ).toEqual(['a', 'b', 'c', 'd']);
  });

  it('maxCost (per-model prices) and timeoutMs stop a wave with budget_exceeded', async () => {
    const priced = graphHarness({ planner: [wave], steps, tools: [workTool().tool] });
    // 10 input + 5 output tokens per call at 1e5 per million: 1.5 per call; the 4th call crosses 4.
    const prices = {
      'task-model': { inputPerMillion: 1e5, outputPerMillion: 1e5 },
      'planner-model': { inputPerMillion: 1e5, outputPerMillion: 1e5 },
    };
    const cost = await collect(priced.runner.run({ userId: 'u', input: 'go', limits: { maxCost: 4, prices } }));
    expect(cost.result.status).toBe('budget_exceeded');
    expect((cost.result.error as BudgetExceededError).budget).toBe('maxCost');
    expect(priced.steps.requests.length).toBeLessThan(6);

    const hung = workTool(new Set(['a', 'b', 'c']));
    const slow = graphHarness({ planner: [wave], steps, tools: [hung.tool] });
    const timed = await collect(slow.runner.run({ userId: 'u', input: 'go', limits: { timeoutMs: 50 } }));
    expect(timed.result.status).toBe('budget_exceeded');
    expect((timed.result.error as BudgetExceededError).budget).toBe('timeoutMs');
    expect(hung.calls.sort()).toEqual(['a', 'b', 'c']);
  });
});
