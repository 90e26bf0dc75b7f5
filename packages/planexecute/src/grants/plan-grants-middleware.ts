import type { InvocationContext, Middleware } from '@replan/core';
import { grantKey, stepToolsOf } from './step-tools.js';
import { grantsIn, statedArgsMatch } from './plan-grants.js';

/** The middleware's name (`meta.middleware` is never set: it records nothing but the grant on each call). */
export const PLAN_GRANTS = 'plan-grants';

export interface PlanGrantsOptions {
  /** The state key of the approved plan (`ApprovedPlan`, prefixed like `Plan`). */
  readonly approvedPlanKey: string;
  /** The plan step a step run is carrying out, as stored (its mode's `stepOf`). */
  readonly stepOf: (ctx: InvocationContext) => unknown;
}

/**
 * Plan grants (`review: { plan: true, grants: true }`) on the executor: a `needsApproval` call runs
 * unasked when the step it is made in was approved with that tool in its `tools` and, where the
 * step states `args` for the tool, with those values (equal as JSON; unstated fields are free).
 * The call's result event carries `grantedBy: <review interrupt id>`. Anything else — another
 * tool, a step no approval covers, other values — asks as it would without grants. The grants are
 * read from the stored review answers on every call, never kept in memory.
 */
export function planGrants(options: PlanGrantsOptions): Middleware {
  return {
    name: PLAN_GRANTS,
    grantApproval(call, ctx) {
      const step = options.stepOf(ctx.invocation);
      if (step === undefined) return undefined;
      const { tools, args } = stepToolsOf(step);
      if (!tools.includes(call.name) || !statedArgsMatch(args[call.name], ctx.args)) return undefined;
      const { events, invocationId } = ctx.invocation;
      const grantedBy = grantsIn(events, invocationId, options.approvedPlanKey).get(grantKey(step));
      return grantedBy === undefined ? undefined : { meta: { grantedBy } };
    },
  };
}
