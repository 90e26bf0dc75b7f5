import { isDeepStrictEqual } from 'node:util';
import { type CriterionResult, failed, passed } from '../criteria/criterion-result.js';
import { show } from '../matchers/arg-matcher.js';
import type { TaskExpectation } from './suite.js';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The first place where `actual` does not contain `expected`, or undefined: objects key by key (other
 * keys allowed), arrays of the same length element by element, other values exactly.
 */
export function containsAt(actual: unknown, expected: unknown, path = 'db'): string | undefined {
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) return `${path} is ${show(actual)}, expected an array`;
    if (actual.length !== expected.length) return `${path} has ${actual.length} item(s), expected ${expected.length}: ${show(actual)}`;
    for (const [i, value] of expected.entries()) {
      const at = containsAt(actual[i], value, `${path}[${i}]`);
      if (at) return at;
    }
    return undefined;
  }
  if (isObject(expected)) {
    if (!isObject(actual)) return `${path} is ${show(actual)}, expected an object`;
    for (const [key, value] of Object.entries(expected)) {
      const at = containsAt(actual[key], value, `${path}.${key}`);
      if (at) return at;
    }
    return undefined;
  }
  return isDeepStrictEqual(actual, expected) ? undefined : `${path} is ${show(actual)}, expected ${show(expected)}`;
}

/** The final database against the task's expectation. */
export function judgeState<Db>(expected: TaskExpectation<Db>['db'], db: Db): CriterionResult | undefined {
  if (expected === undefined) return undefined;
  if (typeof expected === 'function') {
    try {
      const verdict = (expected as (db: Db) => boolean | string)(db);
      return verdict === true
        ? passed('state', 'the database is as expected')
        : failed('state', typeof verdict === 'string' ? verdict : 'the database check returned false');
    } catch (error) {
      return failed('state', `the database check threw: ${(error as Error).message ?? String(error)}`);
    }
  }
  const at = containsAt(db, expected);
  return at ? failed('state', at) : passed('state', 'the database contains the expected state');
}

/** The answer against the facts it must contain (case-insensitive). */
export function judgeFacts(facts: readonly string[] | undefined, answer: string | undefined): CriterionResult | undefined {
  if (!facts?.length) return undefined;
  if (answer === undefined) return failed('facts', 'the run gave no answer');
  const text = answer.toLowerCase();
  const missing = facts.filter((f) => !text.includes(f.toLowerCase()));
  return missing.length
    ? failed('facts', `the answer lacks ${missing.map((m) => show(m)).join(', ')}`, (facts.length - missing.length) / facts.length)
    : passed('facts', `the answer has all ${facts.length} fact(s)`);
}
