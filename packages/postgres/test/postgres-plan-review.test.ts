import { describe, expect } from 'vitest';
import { Runner, type Interrupt, type RunResult } from '@replan/core';
import { createPlanExecuteAgent } from '@replan/planexecute';
import { scriptPlanExecute, type PlanExecuteScript } from '@replan/planexecute/testing';
import { PostgresSessionStore } from '@replan/postgres';
import { useTestPostgres } from './support/use-test-postgres.js';

const db = useTestPostgres();

/** One process: a new agent on new scripted models and a new Runner over its own pool. */
function processOn(schema: string, script: PlanExecuteScript, mode: 'linear' | 'graph') {
  const s = scriptPlanExecute(script);
  const store = new PostgresSessionStore({ connectionString: db.connectionString, schema });
  const agent = createPlanExecuteAgent({ model: s.model, mode, review: { plan: true } });
  return { s, store, runner: new Runner({ agent, appName: 'review', sessionStore: store }) };
}

const reviewOf = (result: RunResult): Interrupt => {
  const review = result.interrupts.find((i) => i.reason === 'plan_review');
  if (!review) throw new Error(`no plan review open: ${result.status}`);
  return review;
};

const linear: PlanExecuteScript = {
  plan: { steps: ['draft', 'polish'] },
  steps: { draft: 'a draft', polish: 'polished', 'only step': 'done in one' },
  answer: 'the text',
};
const graph: PlanExecuteScript = {
  plan: {
    steps: [
      { id: 'a', task: 'A', dependsOn: [] },
      { id: 'b', task: 'B', dependsOn: [] },
    ],
  },
  steps: { a: 'A done', b: 'B done', c: 'C done' },
  answer: 'both',
};

describe.each([
  ['linear', linear, { steps: ['only step'] }],
  ['graph', graph, { steps: [{ id: 'c', task: 'C', dependsOn: [] }] }],
] as const)('plan review on PostgreSQL (%s mode), answered by a new Runner each time', (mode, script, edit) => {
  db.it('approve, then an invalid edit refused and a valid one run, then reject and plan again', async () => {
    const schema = db.freshSchema('review');
    const run = async (answer?: unknown, sessionId?: string, id?: string) => {
      const p = processOn(schema, script, mode);
      try {
        const result = sessionId
          ? await p.runner.resume({ userId: 'u', sessionId, values: { [id as string]: answer } }).result()
          : await p.runner.run({ userId: 'u', input: 'go' }).result();
        return { result, executorCalls: p.s.executorModel.calls, plannerCalls: p.s.plannerModel.calls };
      } finally {
        await p.store.close?.();
      }
    };

    const approved = await run();
    expect(approved.executorCalls).toBe(0);
    const done = await run({ approve: true }, approved.result.sessionId, reviewOf(approved.result).id);
    expect(done.result.status).toBe('completed');
    expect(done.result.output).toBe(script.answer);

    const edited = await run();
    const review = reviewOf(edited.result);
    await expect(run({ edit: { steps: 'not a list' } }, edited.result.sessionId, review.id)).rejects.toMatchObject({
      name: 'ResumeError',
      kind: 'invalid_value',
      message: expect.stringContaining('it is a plan review, and'),
    });
    const afterEdit = await run({ edit }, edited.result.sessionId, review.id);
    expect(afterEdit.result.status).toBe('completed');
    expect(afterEdit.executorCalls).toBe(1);

    const rejected = await run();
    const again = await run({ reject: 'again, please' }, rejected.result.sessionId, reviewOf(rejected.result).id);
    expect(again.plannerCalls).toBe(1);
    expect(again.executorCalls).toBe(0);
    expect(reviewOf(again.result).id).not.toBe(reviewOf(rejected.result).id);
  });
});
