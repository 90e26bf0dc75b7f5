import type { ChatModel } from '@replan/core';
import { EvalInputError } from '../errors.js';
import type { EvalCase } from './eval-case.js';
import { evalSetProblems } from './eval-set-schema.js';

/** A named list of cases, checked by `defineEvalSet`. */
export interface EvalSet {
  readonly name: string;
  readonly cases: readonly EvalCase[];
  /** The judge of every `answer: { judge }` that names no model. */
  readonly judge?: ChatModel;
  /** The user id of the cases' sessions (default `'eval'`). */
  readonly userId?: string;
  /** The share of repeated runs a case must pass, 0..1 (default 1). */
  readonly passRate?: number;
}

/**
 * Checks an eval set and returns it. Throws an `EvalInputError` of kind `set` listing every problem (a missing name,
 * a duplicate case name, a case that expects nothing, a bad matcher, a judge without a model), so
 * a broken set fails before any agent runs.
 */
export function defineEvalSet<const Set extends EvalSet>(set: Set): Set {
  const problems = evalSetProblems(set);
  if (problems.length) {
    const name = typeof (set as Partial<EvalSet> | undefined)?.name === 'string' ? ` "${set.name}"` : '';
    throw new EvalInputError('set', `The eval set${name} cannot run; fix:\n${problems.map((p) => `  - ${p}`).join('\n')}`, problems);
  }
  return set;
}
