import type { PlanExpectation } from '../set/eval-case.js';
import type { RunObservation } from '../run/run-observation.js';
import { type CriterionResult, failed, passed } from './criterion-result.js';

function stepMatches(pattern: string | RegExp, step: string): boolean {
  if (typeof pattern === 'string') return step.toLowerCase().includes(pattern.toLowerCase());
  return new RegExp(pattern.source, pattern.flags.replace('g', '')).test(step);
}

/**
 * The plans the run wrote (the first and every revision) contain the expected steps, and the run
 * executed at most `maxSteps` steps and revised its plan at most `maxReplans` times. The score is
 * the share of these checks met.
 */
export function judgePlan(expected: PlanExpectation, run: RunObservation): CriterionResult {
  const problems: string[] = [];
  let checks = 0;
  const steps = run.plans.flat();
  for (const pattern of expected.includes ?? []) {
    checks++;
    if (!steps.some((step) => stepMatches(pattern, step)))
      problems.push(`no plan step matches ${typeof pattern === 'string' ? JSON.stringify(pattern) : String(pattern)}`);
  }
  if (expected.maxSteps !== undefined) {
    checks++;
    if (run.executedSteps > expected.maxSteps) problems.push(`executed ${run.executedSteps} steps, at most ${expected.maxSteps} expected`);
  }
  if (expected.maxReplans !== undefined) {
    checks++;
    if (run.replans > expected.maxReplans) problems.push(`replanned ${run.replans} times, at most ${expected.maxReplans} expected`);
  }
  if (!run.plans.length && expected.includes?.length) problems.push('(the run wrote no plan: is the agent a plan–execute agent?)');
  const summary = `${run.plans.length} plan(s), ${run.executedSteps} step(s) executed, ${run.replans} replan(s)`;
  if (!problems.length) return passed('plan', summary);
  const met = checks - problems.filter((p) => !p.startsWith('(')).length;
  return failed('plan', `${problems.join('; ')} — ${summary}`, checks ? met / checks : 0);
}
