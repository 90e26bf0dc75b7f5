import { describe, expect, it } from 'vitest';
import { callTools } from '@replan/core/testing';
import { createExecutor, createPlanExecuteAgent, createPlanner, createReplanner, SessionKeys } from '@replan/planexecute';
import { ScriptedModel } from '@replan/core/testing';
import { collect, countingTool, kindsOf, lastText, planCall, respondCall, runnerFor } from './support.js';

describe("a step that uses up the executor's maxIterations", () => {
  it('fails the step (recorded with its error) and the replanner decides; the run goes on', async () => {
    const search = countingTool('search');
    const executor = new ScriptedModel({ respond: () => callTools({ name: 'search', args: { q: 'again' } }) });
    const replanner = new ScriptedModel({ responses: [respondCall('Could not find it; tried 2 searches.')] });
    const agent = createPlanExecuteAgent({
      planner: createPlanner({ model: new ScriptedModel({ responses: [planCall(['find the thing'])] }) }),
      executor: createExecutor({ model: executor, tools: [search.tool], maxIterations: 2 }),
      replanner: createReplanner({ model: replanner }),
    });
    const h = runnerFor(agent);
    const { result, events } = await collect(h.runner.run({ userId: 'u', input: 'find it' }));
    expect(result.status).toBe('completed');
    expect(result.output).toBe('Could not find it; tried 2 searches.');
    expect(executor.calls).toBe(2);
    const [executed] = (await h.state(result.sessionId))[SessionKeys.ExecutedSteps] as { step: string; error?: string }[];
    expect(executed?.step).toBe('find the thing');
    expect(executed?.error).toMatch(/^MaxIterationsError: .*maxIterations \(2\)/);
    // the replanner was told the step failed
    expect(lastText(replanner.requests[0])).toMatch(/FAILED: MaxIterationsError/);
    expect(kindsOf(events).map((k) => k.kind)).toEqual([
      'plan',
      'step-progress',
      'step-progress',
      'step-progress',
      'step-progress',
      'step-result',
      'answer',
    ]);
  });
});
