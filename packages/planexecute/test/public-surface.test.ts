import { describe, expect, it } from 'vitest';

// Listed so that a change to the public surface is a visible diff. One way to build each part: the
// `create*` functions (the classes are exported as types only).
describe('public surface of @replan/planexecute', () => {
  it('exports the create* functions, session keys, plan schemas, prompt templates, event kinds, the plan and respond tool specs, and errors', async () => {
    expect(Object.keys(await import('@replan/planexecute')).sort()).toEqual([
      'InvalidPlanGraphError',
      'PLAN_EXECUTE_META',
      'PLAN_REVIEW',
      'PlanCheckError',
      'PlanStalledError',
      'PlanTool',
      'PlanningError',
      'RespondTool',
      'SessionKeys',
      'createExecutor',
      'createPlanExecuteAgent',
      'createPlanner',
      'createReplanner',
      'defaultPlanSchema',
      'fillTemplate',
      'formatContextView',
      'graphMode',
      'graphPlanSchema',
      'linearMode',
      'planExecuteEventKind',
      'planExecuteKeys',
      'planExecuteState',
      'planReviewAnswerProblem',
      'planReviewKeys',
      'stepText',
      'stepsOf',
    ]);
  });

  it('@replan/planexecute/testing exports scriptPlanExecute only', async () => {
    expect(Object.keys(await import('@replan/planexecute/testing')).sort()).toEqual(['scriptPlanExecute']);
  });

  it('@replan/planexecute/terminal exports renderRun only', async () => {
    expect(Object.keys(await import('@replan/planexecute/terminal')).sort()).toEqual(['renderRun']);
  });
});
