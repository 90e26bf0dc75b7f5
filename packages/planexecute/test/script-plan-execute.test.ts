import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { InMemorySessionStore, tool } from '@replan/core';
import { createPlanExecuteAgent, SessionKeys, type ExecutedGraphStep } from '@replan/planexecute';
import { scriptPlanExecute } from '@replan/planexecute/testing';
import { countingTool, runnerFor, stepPairs } from './support.js';

const user = { userId: 'u', input: 'go' };

describe('scriptPlanExecute drives a plan–execute agent with no prompt strings', () => {
  it('linear: per-role models, each step its tool calls then its text, revisions, then the answer', async () => {
    const search = countingTool('search');
    const s = scriptPlanExecute({
      plan: { steps: ['look up the price', 'add the tax'] },
      steps: {
        'look up the price': { toolCalls: [{ name: 'search', args: { q: 'price' } }], text: 'The price is 100.' },
        'add the tax': 'With tax: 120.',
      },
      replans: [{ steps: ['add the tax'] }],
      answer: 'It costs 120.',
    });
    const agent = createPlanExecuteAgent({
      model: s.executorModel,
      plannerModel: s.plannerModel,
      executorModel: s.executorModel,
      replannerModel: s.replannerModel,
      tools: [search.tool],
    });
    const { runner, state } = runnerFor(agent);
    const result = await runner.run(user).result();
    expect(result.status).toBe('completed');
    expect(result.output).toBe('It costs 120.');
    expect(search.calls).toEqual(['price']);
    expect(stepPairs(await state(result.sessionId))).toEqual([
      ['look up the price', 'The price is 100.'],
      ['add the tax', 'With tax: 120.'],
    ]);
    // Each role asked only its own model; the executor's calls name their step.
    expect(s.plannerModel.calls).toBe(1);
    expect(s.replannerModel.calls).toBe(2);
    expect(s.executorModel.callers.map((c) => c?.label?.id)).toEqual(['1', '1', '2']);
  });

  it('graph: parallel steps in any start order, routed by step id; one model for every role', async () => {
    const work = countingTool('work');
    const ids = ['a', 'b', 'c'];
    const s = scriptPlanExecute({
      plan: {
        steps: [...ids.map((id) => ({ id, task: `task ${id}`, dependsOn: [] })), { id: 'sum', task: 'sum $a $b $c', dependsOn: ids }],
      },
      steps: {
        ...Object.fromEntries(ids.map((id) => [id, { toolCalls: [[{ name: 'work', args: { q: id } }]], text: `${id} done` }])),
        sum: 'all three done',
      },
      answer: 'finished',
    });
    const agent = createPlanExecuteAgent({ model: s.model, mode: 'graph', tools: [work.tool], stepConcurrency: 3 });
    const { runner, state } = runnerFor(agent, new InMemorySessionStore());
    const result = await runner.run(user).result();
    expect(result.status).toBe('completed');
    expect(result.output).toBe('finished');
    expect([...work.calls].sort()).toEqual(ids);
    const executed = (await state(result.sessionId))[SessionKeys.ExecutedSteps] as ExecutedGraphStep[];
    expect(Object.fromEntries(executed.map((e) => [e.id, e.result]))).toEqual({
      a: 'a done',
      b: 'b done',
      c: 'c done',
      sum: 'all three done',
    });
    expect(s.model.callers.map((c) => c?.name)).toContain('planner');
  });

  it('graph: the same script gives the same step results and per-step tool calls whatever order the parallel steps start in', async () => {
    const ids = ['a', 'b', 'c', 'd'];
    /** One run: the parallel steps listed in `order`, `concurrency` at once, each tool call taking `delay(q)` ms. */
    const runOnce = async (order: readonly string[], concurrency: number, delay: (q: string) => number) => {
      const started: string[] = [];
      const fetchTool = tool({
        name: 'fetch',
        description: 'Fetches.',
        parameters: z.object({ q: z.string() }),
        execute: async ({ q }) => {
          started.push(q);
          await new Promise((resolve) => setTimeout(resolve, delay(q)));
          return `data:${q}`;
        },
      });
      const s = scriptPlanExecute({
        plan: {
          steps: [
            ...order.map((id) => ({ id, task: `fetch ${id}`, dependsOn: [] })),
            { id: 'merge', task: 'merge $a $b $c $d', dependsOn: ids },
          ],
        },
        steps: {
          ...Object.fromEntries(
            ids.map((id) => [
              id,
              {
                // Two turns: the second call is chosen from the first's result, so a mixed-up step would show.
                toolCalls: [
                  { name: 'fetch', args: { q: `${id}1` } },
                  (results: readonly { output: unknown }[]) => ({
                    name: 'fetch',
                    args: { q: `${String(results.at(-1)?.output).slice(5)}+${id}2` },
                  }),
                ],
                text: (results: readonly { output: unknown }[]) => `${id}: ${results.map((r) => String(r.output)).join(', ')}`,
              },
            ]),
          ),
          merge: 'merged',
        },
        answer: (results) => ids.map((id) => results[id]).join(' | '),
      });
      const agent = createPlanExecuteAgent({ model: s.model, mode: 'graph', tools: [fetchTool], stepConcurrency: concurrency });
      const { runner, state, events } = runnerFor(agent, new InMemorySessionStore());
      const result = await runner.run(user).result();
      expect(result.status).toBe('completed');
      const executed = (await state(result.sessionId))[SessionKeys.ExecutedSteps] as ExecutedGraphStep[];
      const callsById: Record<string, unknown[]> = {};
      for (const e of await events(result.sessionId)) {
        const id = e.path.split('/executor/')[1];
        if (!id || e.partial) continue;
        for (const block of e.message?.content ?? []) {
          if (block.type !== 'tool_call') continue;
          const calls = callsById[id] ?? [];
          callsById[id] = calls;
          calls.push(block.args);
        }
      }
      return { output: result.output, results: Object.fromEntries(executed.map((e) => [e.id, e.result])), callsById, started };
    };

    const forward = await runOnce(ids, 1, () => 0);
    const reversed = await runOnce([...ids].reverse(), 4, (q) => (q.startsWith('a') ? 30 : q.startsWith('d') ? 0 : 10));
    // The steps really started in other orders…
    expect(forward.started.slice(0, 2)).toEqual(['a1', 'a1+a2']);
    expect(reversed.started[0]).toBe('d1');
    expect(reversed.started).not.toEqual(forward.started);
    // …and each step still got its own script, fed by its own tool results.
    expect(forward.results).toEqual({
      a: 'a: data:a1, data:a1+a2',
      b: 'b: data:b1, data:b1+b2',
      c: 'c: data:c1, data:c1+c2',
      d: 'd: data:d1, data:d1+d2',
      merge: 'merged',
    });
    expect(reversed.results).toEqual(forward.results);
    expect(forward.callsById).toEqual({
      a: [{ q: 'a1' }, { q: 'a1+a2' }],
      b: [{ q: 'b1' }, { q: 'b1+b2' }],
      c: [{ q: 'c1' }, { q: 'c1+c2' }],
      d: [{ q: 'd1' }, { q: 'd1+d2' }],
    });
    expect(reversed.callsById).toEqual(forward.callsById);
    expect(reversed.output).toBe(forward.output);
  });

  it('a plan review answered in a new process: the same script drives the rest', async () => {
    const script = {
      plan: { steps: ['draft', 'polish'] },
      steps: { draft: 'a draft', polish: 'polished' },
      replans: [{ steps: ['polish'] }],
      answer: 'here it is',
    };
    const store = new InMemorySessionStore();
    const processWith = () => {
      const s = scriptPlanExecute(script);
      return { s, ...runnerFor(createPlanExecuteAgent({ model: s.model, review: { plan: true } }), store) };
    };
    const first = processWith();
    const stopped = await first.runner.run(user).result();
    const review = stopped.interrupts[0];
    expect(review?.reason).toBe('plan_review');
    expect(first.s.executorModel.calls).toBe(0);

    const second = processWith();
    const done = await second.runner
      .resume({ userId: 'u', sessionId: stopped.sessionId, values: { [review?.id ?? '']: { approve: true } } })
      .result();
    expect(done.output).toBe('here it is');
    expect(second.s.plannerModel.calls).toBe(0);
  });

  it("tool calls and texts from the step's tool results; an answer from the step results; the router's id", async () => {
    const search = countingTool('search', ({ q }) => (q === 'first' ? 'id-7' : `found ${q}`));
    const s = scriptPlanExecute(
      {
        plan: { steps: ['look it up'] },
        steps: {
          'look it up': {
            toolCalls: [
              { name: 'search', args: { q: 'first' } },
              (results) => ({ name: 'search', args: { q: String(results.at(-1)?.output) } }),
            ],
            text: (results) => `got ${results.map((r) => String(r.output)).join(' then ')}`,
          },
        },
        answer: (results) => `answer: ${results['look it up']}`,
      },
      { id: 'priced-model' },
    );
    const { runner } = runnerFor(createPlanExecuteAgent({ model: s.model, tools: [search.tool] }));
    const result = await runner.run(user).result();
    expect(search.calls).toEqual(['first', 'id-7']);
    expect(result.output).toBe('answer: got id-7 then found id-7');
    expect(s.model.id).toBe('priced-model');
  });

  it('linear: a replanner in a new process, after the executor finished step n there, goes on with its n-th reply', async () => {
    const script = {
      plan: { steps: ['draft', 'publish'] },
      steps: { draft: 'a draft', publish: { toolCalls: [{ name: 'publish', args: { q: 'it' } }], text: 'published' } },
      replans: [{ steps: ['publish'] }],
      answer: 'done',
    };
    const publish = tool({
      name: 'publish',
      description: 'publishes',
      parameters: z.object({ q: z.string() }),
      needsApproval: true,
      execute: () => 'ok',
    });
    const store = new InMemorySessionStore();
    const processWith = () => {
      const s = scriptPlanExecute(script);
      return { s, ...runnerFor(createPlanExecuteAgent({ model: s.model, tools: [publish] }), store) };
    };
    const stopped = await processWith().runner.run(user).result();
    expect(stopped.interrupts[0]?.reason).toBe('approval');
    const second = processWith();
    const done = await second.runner
      .resume({ userId: 'u', sessionId: stopped.sessionId, values: { [stopped.interrupts[0]?.id ?? '']: true } })
      .result();
    // Its first replanner call here comes after step 2: the answer, not the script's first revision again.
    expect(done.status).toBe('completed');
    expect(done.output).toBe('done');
    expect(second.s.replannerModel.calls).toBe(1);
  });

  it("linear: a plan a reviewer edited runs its own steps' scripts (found by the step's task)", async () => {
    const s = scriptPlanExecute({
      plan: { steps: ['draft', 'polish'] },
      steps: { draft: 'a draft', polish: 'polished', 'only step': 'done in one' },
      answer: 'the text',
    });
    const { runner, state } = runnerFor(createPlanExecuteAgent({ model: s.model, review: { plan: true } }));
    const stopped = await runner.run(user).result();
    const done = await runner
      .resume({
        userId: 'u',
        sessionId: stopped.sessionId,
        values: { [stopped.interrupts[0]?.id ?? '']: { edit: { steps: ['only step'] } } },
      })
      .result();
    expect(done.status).toBe('completed');
    expect(stepPairs(await state(done.sessionId))).toEqual([['only step', 'done in one']]);
    expect(s.executorModel.callers.map((c) => c?.label?.text)).toEqual(['only step']);
  });

  it('a step the script does not name runs otherSteps, which gets the step', async () => {
    const search = countingTool('search');
    const s = scriptPlanExecute({
      plan: { steps: ['draft'] },
      steps: { draft: 'a draft' },
      otherSteps: {
        toolCalls: [(_, step) => ({ name: 'search', args: { q: step } })],
        text: (results, step) => `${step}: ${results[0]?.output}`,
      },
      answer: 'done',
    });
    const { runner, state } = runnerFor(createPlanExecuteAgent({ model: s.model, tools: [search.tool], review: { plan: true } }));
    const stopped = await runner.run(user).result();
    const done = await runner
      .resume({
        userId: 'u',
        sessionId: stopped.sessionId,
        values: { [stopped.interrupts[0]?.id ?? '']: { edit: { steps: ['find the price'] } } },
      })
      .result();
    expect(done.status).toBe('completed');
    expect(search.calls).toEqual(['find the price']);
    expect(stepPairs(await state(done.sessionId))).toEqual([['find the price', 'find the price: search:find the price']]);
  });

  it('says which step has no script', async () => {
    const s = scriptPlanExecute({ plan: { steps: ['unscripted'] }, steps: {}, answer: 'x' });
    const { runner } = runnerFor(createPlanExecuteAgent({ model: s.model }));
    const result = await runner.run(user).result();
    expect(result.status).toBe('failed');
    expect(result.error?.message).toContain('no script for step "unscripted"');
  });
});
