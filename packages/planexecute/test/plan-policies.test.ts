import { describe, expect, it } from 'vitest';
import { ConfigurationError, messageText, type Agent } from '@replan/core';
import { ScriptedModel } from '@replan/core/testing';
import { z } from 'zod';
import {
  createExecutor,
  createPlanExecuteAgent,
  createPlanner,
  createReplanner,
  PlanCheckError,
  PlanningError,
  SessionKeys,
  type DefaultPlan,
  type GraphPlan,
  type PlanCheck,
  type PlanCheckContext,
  type PlanReviewPayload,
} from '@replan/planexecute';
import { scriptPlanExecute } from '@replan/planexecute/testing';
import { planCall, respondCall, runnerFor, stepPairs } from './support.js';

const user = { userId: 'u', input: 'go' };

/** Scripted models per role, and an agent over them with `checkPlan` (and more options). */
function setup(
  scripts: { planner: unknown[]; executor?: unknown[]; replanner?: unknown[] },
  options: Record<string, unknown> & { checkPlan: PlanCheck<DefaultPlan> },
) {
  const planner = new ScriptedModel({ id: 'planner-model', responses: scripts.planner as never });
  const executor = new ScriptedModel({ id: 'executor-model', responses: (scripts.executor ?? []) as never });
  const replanner = new ScriptedModel({ id: 'replanner-model', responses: (scripts.replanner ?? []) as never });
  const agent = createPlanExecuteAgent({
    model: executor,
    plannerModel: planner,
    executorModel: executor,
    replannerModel: replanner,
    ...options,
  });
  return { planner, executor, replanner, ...runnerFor(agent) };
}

/** A policy that records what it was asked: at most `n` steps. */
function atMost(n: number) {
  const seen: { steps: readonly string[]; ctx: PlanCheckContext }[] = [];
  const check: PlanCheck<DefaultPlan> = async (plan, ctx) => {
    seen.push({ steps: plan.steps, ctx });
    return plan.steps.length <= n ? { ok: true } : { ok: false, reason: `at most ${n} steps, this plan has ${plan.steps.length}` };
  };
  return { check, seen };
}

describe('checkPlan: a plan policy on every plan and revision', () => {
  it('sends a refused plan back to the planner with the reason; the repaired plan runs', async () => {
    const policy = atMost(2);
    const h = setup(
      {
        planner: [planCall(['a', 'b', 'c']), planCall(['a', 'b'])],
        executor: ['A', 'B'],
        replanner: [planCall(['b']), respondCall('done')],
      },
      { checkPlan: policy.check },
    );
    const result = await h.runner.run(user).result();
    expect(result.status).toBe('completed');
    expect(result.output).toBe('done');
    expect(h.planner.calls).toBe(2);
    // The repair: the refused answer, an error result for its call, then the reason as a user message.
    const repair = h.planner.requests[1]?.messages ?? [];
    expect(repair.at(-2)?.role).toBe('tool');
    expect(messageText(repair.at(-1))).toContain('refused by checkPlan: at most 2 steps, this plan has 3');
    expect(stepPairs(await h.state(result.sessionId))).toEqual([
      ['a', 'A'],
      ['b', 'B'],
    ]);
    // The first plan (twice), then the revision; answers are not checked.
    expect(policy.seen.map((s) => [s.steps, s.ctx.role, s.ctx.attempt])).toEqual([
      [['a', 'b', 'c'], 'planner', 1],
      [['a', 'b'], 'planner', 2],
      [['b'], 'replanner', 1],
    ]);
    expect(policy.seen[0]?.ctx.agent).toBe('planner');
    expect(policy.seen[2]?.ctx.agent).toBe('replanner');
  });

  it("refuses a replanner's revision and repairs it like the planner's plan", async () => {
    const policy = atMost(1);
    const h = setup(
      { planner: [planCall(['a'])], executor: ['A', 'B'], replanner: [planCall(['b', 'c']), planCall(['b']), respondCall('done')] },
      { checkPlan: policy.check },
    );
    const result = await h.runner.run(user).result();
    expect(result.status).toBe('completed');
    expect(h.replanner.calls).toBe(3);
    expect(messageText(h.replanner.requests[1]?.messages.at(-1))).toContain('at most 1 steps, this plan has 2');
    expect(stepPairs(await h.state(result.sessionId)).map(([step]) => step)).toEqual(['a', 'b']);
  });

  it('refused every time: PlanningError naming the reason after maxRepairs, and no step runs', async () => {
    const policy = atMost(1);
    const h = setup({ planner: [planCall(['a', 'b']), planCall(['a', 'b']), planCall(['a', 'b'])] }, { checkPlan: policy.check });
    const result = await h.runner.run(user).result();
    expect(result.status).toBe('failed');
    expect(result.error).toBeInstanceOf(PlanningError);
    expect(result.error?.message).toContain('refused by checkPlan: at most 1 steps, this plan has 2');
    expect((result.error as PlanningError).attempts).toBe(3);
    expect(h.planner.calls).toBe(3);
    expect(h.executor.calls).toBe(0);
    expect((await h.state(result.sessionId))[SessionKeys.Plan]).toBeUndefined();
  });

  it('with review on, the check runs first: a refused plan is never shown for review', async () => {
    const policy = atMost(1);
    const h = setup({ planner: [planCall(['a', 'b']), planCall(['a'])] }, { checkPlan: policy.check, review: { plan: true } });
    const result = await h.runner.run(user).result();
    expect(result.status).toBe('interrupted');
    const reviews = result.interrupts.filter((i) => i.reason === 'plan_review');
    expect(reviews.map((i) => (i.payload as PlanReviewPayload<DefaultPlan>).plan)).toEqual([{ steps: ['a'] }]);
    expect(policy.seen).toHaveLength(2);
    // Nothing anywhere in the log offered the refused plan for review.
    const events = await h.events(result.sessionId);
    const reviewed = events.flatMap((e) => (e.actions?.interrupt?.reason === 'plan_review' ? [e.actions.interrupt.payload] : []));
    expect(reviewed.map((p) => (p as PlanReviewPayload<DefaultPlan>).plan)).toEqual([{ steps: ['a'] }]);
    expect(h.executor.calls).toBe(0);
  });

  it('a checkPlan that throws fails the run with PlanCheckError naming it (an error event is stored)', async () => {
    const h = setup(
      { planner: [planCall(['a'])] },
      {
        checkPlan: () => {
          throw new TypeError('policy table missing');
        },
      },
    );
    const result = await h.runner.run(user).result();
    expect(result.status).toBe('failed');
    expect(result.error).toBeInstanceOf(PlanCheckError);
    expect(result.error?.message).toContain('checkPlan failed on a plan of agent "planner"');
    expect(result.error?.message).toContain('TypeError: policy table missing');
    expect(h.planner.calls).toBe(1);
    expect(h.executor.calls).toBe(0);
    expect((await h.events(result.sessionId)).some((e) => e.error?.name === 'PlanCheckError')).toBe(true);
  });

  it('a checkPlan that returns something else than { ok: true } or { ok: false, reason } is a PlanCheckError too', async () => {
    const h = setup({ planner: [planCall(['a'])] }, { checkPlan: (() => ({ ok: false })) as unknown as PlanCheck<DefaultPlan> });
    const result = await h.runner.run(user).result();
    expect(result.error).toBeInstanceOf(PlanCheckError);
    expect(result.error?.message).toContain('{"ok":false}');
  });

  it('graph mode: a plan without a final verification step is refused and repaired', async () => {
    const good: GraphPlan = {
      steps: [
        { id: 'fetch', task: 'fetch the data', dependsOn: [] },
        { id: 'verify', task: 'verify the totals', dependsOn: ['fetch'] },
      ],
    };
    const bad: GraphPlan = { steps: [{ id: 'fetch', task: 'fetch the data', dependsOn: [] }] };
    const s = scriptPlanExecute({ plan: good, steps: { fetch: 'data', verify: 'totals match' }, answer: 'verified' });
    const planner = new ScriptedModel({ id: 'graph-planner', responses: [planCall(bad.steps), planCall(good.steps)] });
    const checks: string[][] = [];
    const agent = createPlanExecuteAgent({
      mode: 'graph',
      model: s.executorModel,
      plannerModel: planner,
      replannerModel: s.replannerModel,
      streamingPlan: true,
      checkPlan: (plan) => {
        checks.push(plan.steps.map((step) => step.id));
        return plan.steps.at(-1)?.task.startsWith('verify') ? { ok: true } : { ok: false, reason: 'the last step must verify the result' };
      },
    });
    const { runner, state } = runnerFor(agent);
    const result = await runner.run(user).result();
    expect(result.status).toBe('completed');
    expect(result.output).toBe('verified');
    expect(checks).toEqual([['fetch'], ['fetch', 'verify']]);
    expect(messageText(planner.requests[1]?.messages.at(-1))).toContain('the last step must verify the result');
    // The refused plan's step never started early (a checked plan is not streamed): one run per step.
    expect(s.executorModel.callers.map((c) => c?.label?.id).sort()).toEqual(['fetch', 'verify']);
    expect((await state(result.sessionId))[SessionKeys.Plan]).toEqual(good);
  });

  it('only known tools: the plan is typed by planSchema, and a step naming another tool is refused', async () => {
    const planSchema = z.object({ steps: z.array(z.object({ task: z.string(), tool: z.string() })) });
    const known = new Set(['search']);
    const planner = new ScriptedModel({
      responses: [planCall([{ task: 'look', tool: 'browse' }]), planCall([{ task: 'look', tool: 'search' }])],
    });
    const agent = createPlanExecuteAgent({
      model: new ScriptedModel({ responses: ['found', respondCall('ok')] }),
      plannerModel: planner,
      planSchema,
      checkPlan: (plan) => {
        const unknown = plan.steps.filter((s) => !known.has(s.tool)).map((s) => s.tool);
        return unknown.length ? { ok: false, reason: `unknown tools ${unknown.join(', ')}` } : { ok: true };
      },
    });
    const result = await runnerFor(agent).runner.run(user).result();
    expect(result.status).toBe('completed');
    expect(messageText(planner.requests[1]?.messages.at(-1))).toContain('unknown tools browse');
  });

  it('needs our planner and replanner, and a function: else a ConfigurationError saying why', () => {
    const model = new ScriptedModel({ responses: [] });
    const custom: Agent = { name: 'mine', description: '', async *run() {} };
    const checkPlan = () => ({ ok: true }) as const;
    expect(() =>
      createPlanExecuteAgent({ planner: custom, executor: createExecutor({ model }), replanner: createReplanner({ model }), checkPlan }),
    ).toThrow(/checkPlan needs a planner from createPlanner, but "mine" is a custom agent/);
    expect(() =>
      createPlanExecuteAgent({ planner: createPlanner({ model }), executor: createExecutor({ model }), replanner: custom, checkPlan }),
    ).toThrow(ConfigurationError);
    expect(() => createPlanExecuteAgent({ model, checkPlan: 'no' as unknown as PlanCheck<DefaultPlan> })).toThrow(
      /checkPlan must be a function/,
    );
  });
});
