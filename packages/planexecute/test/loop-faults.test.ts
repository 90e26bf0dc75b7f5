import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { InMemorySessionStore, tool, type AgentEvent, type SessionKey } from '@replan/core';
import type { AppendOptions } from '@replan/core/store-kit';
import { callTools } from '@replan/core/testing';
import { SessionKeys, PLAN_EXECUTE_META } from '@replan/planexecute';
import { collect, countingTool, harness, kindsOf, lastText, planCall, respondCall, stepPairs } from './support.js';

describe('plan–execute loop faults', () => {
  it('an empty plan skips the executor and the replanner answers', async () => {
    const h = harness({ planner: [planCall([])], replanner: [respondCall('Nothing needs doing.')] });
    const { result, events } = await collect(h.runner.run({ userId: 'u', input: 'hi' }));
    expect(result.status).toBe('completed');
    expect(result.output).toBe('Nothing needs doing.');
    expect(h.executor.calls).toBe(0);
    expect(events.some((e) => e.author === 'executor')).toBe(false);
    const state = await h.state(result.sessionId);
    expect(state[SessionKeys.ExecutedSteps]).toEqual([]);
    expect(state[SessionKeys.ExecutedStep]).toBeUndefined();
  });

  it('an empty revised plan does not re-append the last step', async () => {
    const h = harness({
      planner: [planCall(['s1'])],
      executor: ['r1'],
      replanner: [planCall([]), respondCall('end')],
    });
    const { result } = await collect(h.runner.run({ userId: 'u', input: 'go' }));
    expect(result.status).toBe('completed');
    expect(h.executor.calls).toBe(1);
    expect(stepPairs(await h.state(result.sessionId))).toEqual([['s1', 'r1']]);
    expect(lastText(h.replanner.requests[1])).toContain('"steps": []');
  });

  it('reaching maxIterations ends max_iterations with an error event, keeping steps and the last plan', async () => {
    const h = harness({
      planner: [planCall(['s1'])],
      executor: ['r1', 'r2'],
      replanner: [planCall(['s2']), planCall(['s3'])],
      maxIterations: 2,
    });
    const { result, events } = await collect(h.runner.run({ userId: 'u', input: 'go' }));
    expect(result.status).toBe('max_iterations');
    expect(result.output).toBeUndefined();
    const errorEvent = events.find((e) => e.error);
    expect(errorEvent?.error?.name).toBe('MaxIterationsError');
    expect(errorEvent?.error?.message).toMatch(/execute_replan.*maxIterations \(2\)/);
    expect(kindsOf(events).at(-1)).toEqual({ kind: 'error', error: errorEvent?.error });
    const state = await h.state(result.sessionId);
    expect(stepPairs(state)).toEqual([
      ['s1', 'r1'],
      ['s2', 'r2'],
    ]);
    expect(state[SessionKeys.Plan]).toEqual({ steps: ['s3'] });
    // resuming a finished invocation returns its status without calling a model
    const again = await collect(h.runner.resume({ userId: 'u', sessionId: result.sessionId }));
    expect(again.result.status).toBe('max_iterations');
    expect(h.executor.calls + h.replanner.calls).toBe(4);
  });

  it('records a tool error in the step result so the replanner can revise', async () => {
    const divide = tool({
      name: 'divide',
      description: 'divide a by b',
      parameters: z.object({ a: z.number(), b: z.number() }),
      execute: ({ a, b }) => {
        if (b === 0) throw new Error('division by zero');
        return a / b;
      },
    });
    const h = harness({
      planner: [planCall(['divide 1 by 0'])],
      executor: [
        callTools({ name: 'divide', args: { a: 1, b: 0 } }),
        'I could not divide.',
        callTools({ name: 'divide', args: { a: 1, b: 2 } }),
        '0.5',
      ],
      replanner: [planCall(['divide 1 by 2 instead']), respondCall('0.5')],
      tools: [divide],
    });
    const { result } = await collect(h.runner.run({ userId: 'u', input: 'divide' }));
    expect(result.status).toBe('completed');
    const steps = (await h.state(result.sessionId))[SessionKeys.ExecutedSteps] as { toolErrors?: unknown }[];
    expect(steps[0]).toEqual({
      step: 'divide 1 by 0',
      result: 'I could not divide.',
      toolErrors: [{ tool: 'divide', error: 'Error: tool "divide" failed: division by zero' }],
    });
    expect(steps[1]?.toolErrors).toBeUndefined();
    expect(lastText(h.replanner.requests[0])).toContain('Tool error (divide): Error: tool "divide" failed: division by zero');
  });

  it('abort during a step: aborted, consistent, and resume finishes without re-running planner or done steps', async () => {
    const controller = new AbortController();
    const fast = countingTool('fast');
    let slowRuns = 0;
    const slow = tool({
      name: 'slow',
      description: 'slow',
      parameters: z.object({}),
      execute: () => {
        if (++slowRuns === 1) {
          controller.abort();
          return new Promise(() => {}); // never settles: only the abort ends it
        }
        return 'slow result';
      },
    });
    const h = harness({
      planner: [planCall(['fast step', 'slow step'])],
      executor: [callTools({ name: 'fast', args: { q: 'x' } }), 'fast ok', callTools({ name: 'slow' }), 'slow ok'],
      replanner: [planCall(['slow step']), respondCall('done')],
      tools: [fast.tool, slow],
    });
    const stopped = await collect(h.runner.run({ userId: 'u', input: 'go', signal: controller.signal }));
    expect(stopped.result.status).toBe('aborted');
    const id = stopped.result.sessionId;
    const state = await h.state(id);
    expect(stepPairs(state)).toEqual([['fast step', 'fast ok']]);
    expect(state[SessionKeys.Plan]).toEqual({ steps: ['slow step'] });
    const stored = await h.events(id);
    expect(stored.filter((e) => e.meta?.[PLAN_EXECUTE_META] === 'step-result')).toHaveLength(1);

    const { result } = await collect(h.runner.resume({ userId: 'u', sessionId: id }));
    expect(result.status).toBe('completed');
    expect(result.output).toBe('done');
    expect(h.planner.calls).toBe(1);
    expect(fast.calls).toEqual(['x']);
    expect(slowRuns).toBe(2);
    expect(h.executor.calls).toBe(4);
    expect(stepPairs(await h.state(id))).toEqual([
      ['fast step', 'fast ok'],
      ['slow step', 'slow ok'],
    ]);
  });

  it('a replanner retried after a failed write does not append its step twice', async () => {
    // Fails the write that follows the replanner's revised plan (a crash between two events).
    class FlakyStore extends InMemorySessionStore {
      failNext = false;
      override async appendEvents(key: SessionKey, events: readonly AgentEvent[], options: AppendOptions) {
        if (this.failNext) {
          this.failNext = false;
          throw new Error('disk full');
        }
        const out = await super.appendEvents(key, events, options);
        if (events.some((e) => e.meta?.[PLAN_EXECUTE_META] === 'revised-plan')) this.failNext = true;
        return out;
      }
    }
    const h = harness({
      planner: [planCall(['s1', 's2'])],
      executor: ['r1', 'r2'],
      replanner: [planCall(['s2']), respondCall('end')],
      store: new FlakyStore(),
    });
    const first = await collect(h.runner.run({ userId: 'u', input: 'go' }));
    expect(first.result.status).toBe('failed');
    expect(first.result.error?.message).toBe('disk full');
    const { result } = await collect(h.runner.resume({ userId: 'u', sessionId: first.result.sessionId }));
    expect(result.status).toBe('completed');
    expect(h.replanner.calls).toBe(2);
    expect(stepPairs(await h.state(result.sessionId))).toEqual([
      ['s1', 'r1'],
      ['s2', 'r2'],
    ]);
  });
});
