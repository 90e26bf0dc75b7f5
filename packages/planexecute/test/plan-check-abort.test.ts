import { describe, expect, it } from 'vitest';
import { ScriptedModel } from '@replan/core/testing';
import { createPlanExecuteAgent, type DefaultPlan, type PlanCheck } from '@replan/planexecute';
import { planCall, respondCall, runnerFor } from './support.js';

const user = { userId: 'u', sessionId: 's' };

describe('checkPlan that ignores the run signal', () => {
  it('run.abort() ends the run aborted promptly; ctx.signal fired; the session resumes and completes', async () => {
    let reached!: () => void;
    const started = new Promise<void>((resolve) => (reached = resolve));
    const signals: AbortSignal[] = [];
    const checkPlan: PlanCheck<DefaultPlan> = (_plan, ctx) => {
      signals.push(ctx.signal);
      if (signals.length > 1) return { ok: true };
      reached();
      return new Promise<never>(() => undefined); // never settles, whatever its signal says
    };
    const planner = new ScriptedModel({ id: 'planner-model', respond: () => planCall(['a']) });
    const executor = new ScriptedModel({ id: 'executor-model', respond: () => 'A' });
    const replanner = new ScriptedModel({ id: 'replanner-model', respond: () => respondCall('done') });
    const agent = createPlanExecuteAgent({ model: executor, plannerModel: planner, replannerModel: replanner, checkPlan });
    const { runner } = runnerFor(agent);

    const run = runner.run({ ...user, input: 'go' });
    await started;
    const before = Date.now();
    run.abort('user pressed stop');
    const aborted = await run.result();
    expect(aborted.status).toBe('aborted');
    expect(aborted.error?.name).toBe('RunAbortedError');
    expect(Date.now() - before).toBeLessThan(2_000);
    expect(signals[0]?.aborted).toBe(true);

    // The session is not left busy: a resume runs and finishes the plan.
    const resumed = await runner.resume(user).result();
    expect(resumed.status).toBe('completed');
    expect(resumed.output).toBe('done');
    expect(signals.length).toBeGreaterThan(1);
  });
});
