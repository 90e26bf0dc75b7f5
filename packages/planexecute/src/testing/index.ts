/**
 * `@replan/planexecute/testing` — offline tests of plan–execute agents: `scriptPlanExecute` gives
 * scripted planner, executor and replanner models that answer by who calls them, not by what the
 * prompt says.
 * @module
 */
export { scriptPlanExecute } from './script-plan-execute.js';
export type { PlanExecuteScript } from './script-plan-execute.js';
export type { StepView } from './step-view.js';
