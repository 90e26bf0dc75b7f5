import { applyContextPolicy, type ContextView, type ResolvedContextPolicy } from './context-policy.js';
import { referencesIn } from './step-references.js';
import { stepText } from './plan-schema.js';
import type { ExecutedStep } from './session-keys.js';
import { cappedStepItem } from './step-result-cap.js';

const numbered = (steps: readonly ExecutedStep[]) => steps.map((s, i) => ({ ...s, label: `${i + 1}.` }));

/**
 * The completed steps a linear executor is shown. A linear plan has no `dependsOn`, so a step
 * depends on the step before it, and on any earlier step it names as `$n` (its number).
 */
export function linearExecutorContext(steps: readonly ExecutedStep[], policy: ResolvedContextPolicy, current: unknown): ContextView {
  const named = new Set(referencesIn(stepText(current)).map((r) => r.id));
  return applyContextPolicy(numbered(steps), policy, (i) => i === steps.length - 1 || named.has(String(i + 1)));
}

/**
 * The completed steps a linear replanner is shown: the last step's result is the one nothing
 * consumed yet. Results over `maxChars` are shown shortened (see `cappedStepItem`).
 */
export function linearReplannerContext(steps: readonly ExecutedStep[], policy: ResolvedContextPolicy, maxChars?: number): ContextView {
  const items = numbered(steps).map((item, i) => cappedStepItem(item, maxChars, `$${i + 1}`, false));
  return applyContextPolicy(items, policy, (i) => i === steps.length - 1);
}
