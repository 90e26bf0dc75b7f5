import { describe, expect, it } from 'vitest';
import { ConfigurationError, Runner, SequentialAgent } from '@replan/core';
import { ScriptedModel } from '@replan/core/testing';
import { createExecutor, createPlanExecuteAgent, createPlanner, createReplanner } from '@replan/planexecute';

describe('plan–execute agent names and outputKeys', () => {
  it('bad names and outputKeys are construction errors that say what to do', () => {
    const model = new ScriptedModel({ responses: [] });
    const twice = new SequentialAgent({
      name: 'pipeline',
      subAgents: [
        createPlanExecuteAgent({
          name: 'a',
          planner: createPlanner({ model, name: 'planner' }),
          executor: createExecutor({ model }),
          replanner: createReplanner({ model }),
        }),
        createPlanExecuteAgent({
          name: 'b',
          planner: createPlanner({ model, name: 'planner' }),
          executor: createExecutor({ model }),
          replanner: createReplanner({ model }),
        }),
      ],
    });
    expect(() => new Runner({ agent: twice, appName: 'x' })).toThrow(ConfigurationError);
    expect(() => new Runner({ agent: twice, appName: 'x' })).toThrow(
      /"planner" is used twice in one agent tree \(at pipeline\/a\/planner and pipeline\/b\/planner\).*give each createPlanExecuteAgent a distinct `name`/,
    );
    // Two default-named agents: the fix is named too.
    const defaults = new SequentialAgent({
      name: 'p',
      subAgents: [createPlanExecuteAgent({ model }), new SequentialAgent({ name: 'wrap', subAgents: [createPlanExecuteAgent({ model })] })],
    });
    expect(() => new Runner({ agent: defaults, appName: 'x' })).toThrow(/"plan_execute" is used twice.*distinct `name`/);
    expect(() => createPlanExecuteAgent({ model, name: 'app' })).toThrow(/"app:", the app-scope prefix/);
    expect(() => createPlanExecuteAgent({ model, name: 'temp' })).toThrow(ConfigurationError);
    expect(() => createPlanExecuteAgent({ model, name: 'x'.repeat(50) })).toThrow(/too long: at most 49 characters/);
    expect(() => createPlanExecuteAgent({ model, name: 'x'.repeat(49) })).not.toThrow();
    expect(() => createPlanExecuteAgent({ model, name: 'bad name' })).toThrow(/Agent name "bad name" is invalid/);
    expect(() => createPlanExecuteAgent({ model, outputKey: '' })).toThrow(/outputKey must be a non-empty string/);
    expect(() => createPlanExecuteAgent({ model, name: 'r', outputKey: 'r:Plan' })).toThrow(
      /outputKey "r:Plan" is one of its own state keys/,
    );
  });

  it('a role without a model (plain JavaScript may omit `model`) is a construction error naming the role', () => {
    const model = new ScriptedModel({ responses: [] });
    const untyped = createPlanExecuteAgent as (options: object) => unknown;
    expect(() => untyped({ plannerModel: model, executorModel: model })).toThrow(ConfigurationError);
    expect(() => untyped({ plannerModel: model, executorModel: model })).toThrow(/the replanner has no model.*`replannerModel`/);
    expect(() => untyped({})).toThrow(/the planner has no model/);
    expect(() => untyped({ plannerModel: model, executorModel: model, replannerModel: model })).not.toThrow();
    expect(() => untyped({ planner: createPlanner({ model }), executor: createExecutor({ model }) })).toThrow(/the replanner has no model/);
  });
});
