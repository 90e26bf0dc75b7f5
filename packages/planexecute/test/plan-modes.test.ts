import { describe, expect, it } from 'vitest';
import { messageText } from '@replan/core';
import { ScriptedModel } from '@replan/core/testing';
import {
  createPlanExecuteAgent,
  createPlanner,
  graphMode,
  graphPlanSchema,
  linearMode,
  PlannerPrompt,
  type PlanMode,
} from '@replan/planexecute';
import { collect, planCall, respondCall, runnerFor } from './support.js';

describe('plan modes: a strategy the parts ask, not a flag they test', () => {
  it('takes a PlanMode of your own: its prompts, its validation, its name in errors', async () => {
    const terse: PlanMode = {
      ...linearMode,
      name: 'terse',
      prompts: { ...linearMode.prompts, planner: { ...PlannerPrompt, system: 'TERSE: one step per line.' } },
      // At most two steps: a longer plan goes back to the model as a repair.
      validate: (plan) => ((plan as { steps: unknown[] }).steps.length <= 2 ? undefined : 'at most 2 steps'),
    };
    const planner = new ScriptedModel({ responses: [planCall(['a', 'b', 'c']), planCall(['a'])] });
    const executor = new ScriptedModel({ responses: ['A'] });
    const replanner = new ScriptedModel({ responses: [respondCall('done')] });
    const agent = createPlanExecuteAgent({ model: executor, plannerModel: planner, replannerModel: replanner, mode: terse });
    const { result } = await collect(runnerFor(agent).runner.run({ userId: 'u', input: 'go' }));
    expect(result.status).toBe('completed');
    expect(messageText(planner.requests[0]?.messages[0])).toBe('TERSE: one step per line.');
    expect(messageText(planner.requests[1]?.messages.at(-1))).toMatch(/at most 2 steps/);
    expect(() => createPlanExecuteAgent({ model: executor, mode: terse, streamingPlan: true })).toThrow(/mode 'terse' cannot/);
  });

  it("binds a planner built without a mode to the agent's: the graph schema, prompt and validation", async () => {
    const model = new ScriptedModel({
      responses: [
        planCall([{ id: 'a', task: 't', dependsOn: ['b'] }]), // unknown dependency: a repair
        planCall([{ id: 'a', task: 't', dependsOn: [] }]),
      ],
    });
    const planner = createPlanner({ model });
    const agent = createPlanExecuteAgent({ planner, model: new ScriptedModel({ responses: ['A', respondCall('ok')] }), mode: 'graph' });
    await collect(runnerFor(agent).runner.run({ userId: 'u', input: 'go' }));
    expect(messageText(model.requests[0]?.messages[0])).toMatch(/as a dependency graph/);
    expect(model.requests[0]?.tools?.[0]?.parameters).toEqual(expect.objectContaining({ type: 'object' }));
    expect(messageText(model.requests[1]?.messages.at(-1))).toMatch(/not a valid graph/);
    expect(graphMode.planSchema).toBe(graphPlanSchema);
    // The same planner alone (not bound by an agent) is linear.
    expect(planner.mode).toBe(linearMode);
  });
});
