import { applyContextPolicy, type ResolvedContextPolicy } from '../base/context-policy.js';
import { executedGraphSteps, readExecutionState, SessionKeys, type PlanExecuteKeys } from '../base/session-keys.js';
import { graphStepsOf } from './graph-plan.js';
import type { GraphReplannerInput } from './graph-prompts.js';
import { cappedStepItem } from '../base/step-result-cap.js';

export type { GraphReplannerInput } from './graph-prompts.js';

/**
 * What the graph replanner is shown: the plan in force, every step run under this objective, and
 * their results as the policy allows. Failed steps and results no run step consumed (the graph's
 * outputs) count as referenced: always shown verbatim — shortened when over `maxChars` (see `cappedStepItem`).
 */
export function graphReplannerInput(
  state: Readonly<Record<string, unknown>>,
  policy: ResolvedContextPolicy,
  keys: PlanExecuteKeys = SessionKeys,
  maxChars?: number,
): GraphReplannerInput {
  const executedSteps = executedGraphSteps(state, keys);
  const steps = graphStepsOf(state[keys.Plan]);
  const consumed = new Set(executedSteps.flatMap((s) => s.dependsOn ?? []));
  const items = executedSteps.map((s) => cappedStepItem({ ...s, label: `[${s.id}]` }, maxChars, `$${s.id}`, true));
  const context = applyContextPolicy(items, policy, (i) => {
    const s = executedSteps[i];
    return s !== undefined && (s.error !== undefined || !consumed.has(s.id));
  });
  return { userInput: readExecutionState(state, keys).userInput, steps, executedSteps, context };
}
