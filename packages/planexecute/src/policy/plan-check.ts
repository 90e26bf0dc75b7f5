import { ReplanError } from '@replan/core';
import { abortErrorOf, raceAbort } from '@replan/core/agent-kit';

/** What a plan policy says about a plan: accept it, or refuse it with a reason the model is shown. */
export type PlanCheckResult = { readonly ok: true } | { readonly ok: false; readonly reason: string };

/** What a plan policy is told besides the plan. */
export interface PlanCheckContext {
  /** `'planner'` for the first plan, `'replanner'` for a revision. */
  readonly role: 'planner' | 'replanner';
  /** The name of the agent that wrote the plan. */
  readonly agent: string;
  /** Which answer of this decision it is: 1 for the first, 2 after one repair, … */
  readonly attempt: number;
  /** The session state as the planner or replanner sees it (read it; do not change it). */
  readonly state: Readonly<Record<string, unknown>>;
  /**
   * The run's signal: aborted when the run is aborted, times out or loses its lease. Pass it to
   * whatever the check waits on; a check that ignores it is not waited for once it fires.
   */
  readonly signal: AbortSignal;
}

/**
 * A plan policy (`createPlanExecuteAgent({ checkPlan })`): run on the plan and on every revision
 * before it is accepted (and before a person reviews it). A refusal goes back to the model as a
 * repair message with its `reason`, and the model plans again; after `maxRepairs` refusals the run
 * fails with a `PlanningError` naming the reason. It may be async. Throwing is not a refusal: the
 * run fails with a `PlanCheckError`.
 */
export type PlanCheck<Plan = unknown> = (plan: Plan, ctx: PlanCheckContext) => PlanCheckResult | Promise<PlanCheckResult>;

/** A `checkPlan` threw, or returned something that is not a `PlanCheckResult`: the run fails with this error. */
export class PlanCheckError extends ReplanError {
  constructor(
    /** The agent whose plan was being checked. */
    readonly agentName: string,
    /** What went wrong in the check. */
    readonly problem: string,
    options?: { readonly cause?: unknown },
  ) {
    super(
      `checkPlan failed on a plan of agent "${agentName}": ${problem}. ` +
        'A plan policy should return { ok: true } or { ok: false, reason } (a refusal is sent back to the model); fix the function so it does not throw.',
      options?.cause !== undefined ? { cause: options.cause } : undefined,
    );
  }
}

/** Runs a plan policy: the refusal's reason as a repair problem, or undefined when the plan is accepted. */
export async function refusalOf<Plan>(check: PlanCheck<Plan>, plan: Plan, ctx: PlanCheckContext): Promise<string | undefined> {
  let result: unknown;
  try {
    // A check that ignores the run's signal cannot hold the run: the abort ends the wait.
    result = await raceAbort(
      Promise.resolve().then(() => check(plan, ctx)),
      ctx.signal,
    );
  } catch (error) {
    if (ctx.signal.aborted) throw abortErrorOf(ctx.signal);
    throw new PlanCheckError(ctx.agent, `it threw ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`, {
      cause: error,
    });
  }
  const r = result as Partial<{ ok: unknown; reason: unknown }> | null | undefined;
  if (r?.ok === true) return undefined;
  if (r?.ok === false && typeof r.reason === 'string' && r.reason.trim()) return `the plan was refused by checkPlan: ${r.reason}`;
  throw new PlanCheckError(
    ctx.agent,
    `it returned ${JSON.stringify(result) ?? String(result)}, not { ok: true } or { ok: false, reason: '<why>' }`,
  );
}
