// A plan–execute agent's loop is named `execute_replan` (or `<name>_execute_replan`): its executor
// and replanner run below it. Read from the path so @replan/memory needs nothing of @replan/planexecute.
const LOOP_SEGMENT = /(^|_)execute_replan$/;

/** True for an agent inside a plan–execute agent's execute–replan loop (its executor or replanner). */
export const inPlanExecuteLoop = (path: string): boolean => path.split('/').some((segment) => LOOP_SEGMENT.test(segment));
