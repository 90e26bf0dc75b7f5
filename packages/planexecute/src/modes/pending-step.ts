import type { InvocationContext } from '@replan/core';
import type { ExecutedStep, PlanExecuteKeys } from '../base/session-keys.js';

/**
 * The step the executor finished since the last plan or answer, if any: the latest `ExecutedStep`
 * write comes after the latest `ExecutedSteps` write. (After an empty plan there is none.) Only
 * events of this replanner's own plan–execute agent count: those under its parent's path (the
 * loop's), with its keys — another plan–execute agent in the tree never looks like a pending step.
 */
export function pendingStep(ctx: InvocationContext, keys: PlanExecuteKeys): ExecutedStep | undefined {
  const slash = ctx.path.lastIndexOf('/');
  const scope = slash >= 0 ? ctx.path.slice(0, slash + 1) : '';
  for (let i = ctx.events.length - 1; i >= 0; i--) {
    const event = ctx.events[i];
    if (!event?.path.startsWith(scope)) continue;
    const actions = event.actions;
    if (actions?.stateAppend && keys.ExecutedSteps in actions.stateAppend) return undefined;
    const delta = actions?.stateDelta;
    if (!delta) continue;
    if (keys.ExecutedSteps in delta) return undefined;
    if (keys.ExecutedStep in delta) return delta[keys.ExecutedStep] as ExecutedStep;
  }
  return undefined;
}
