import { objectMismatch } from '../matchers/arg-matcher.js';
import type { ObservedToolCall, RunObservation } from '../run/run-observation.js';
import type { ExpectedToolCall, TrajectoryExpectation } from '../set/eval-case.js';
import { type CriterionResult, failed, passed } from './criterion-result.js';

/** Why `actual` is not the expected call, or `undefined` when it is (ids are not compared). */
function callMismatch(expected: ExpectedToolCall, actual: ObservedToolCall): string | undefined {
  if (expected.name !== actual.name) return `called ${actual.name}, not ${expected.name}`;
  if (expected.args === undefined || expected.args === 'ignore') return undefined;
  const problem = objectMismatch(expected.args, actual.args);
  return problem ? `${actual.name} args ${problem}` : undefined;
}

const matches = (expected: ExpectedToolCall, actual: ObservedToolCall) => callMismatch(expected, actual) === undefined;
const names = (calls: readonly ObservedToolCall[]) => (calls.length ? calls.map((c) => c.name).join(', ') : 'no tool calls');

/** Why the expected call matched none of the calls: the nearest one with its name says most. */
function missing(expected: ExpectedToolCall, index: number, actual: readonly ObservedToolCall[]): string {
  const sameName = actual.find((call) => call.name === expected.name);
  const detail = sameName ? callMismatch(expected, sameName) : `${expected.name} was not called`;
  return `expected call #${index + 1} (${expected.name}): ${detail}`;
}

/** Matched expected calls and the first that did not match, in order (other calls may come between). */
function inOrder(expected: readonly ExpectedToolCall[], actual: readonly ObservedToolCall[]): { matched: number; problem?: string } {
  let cursor = 0;
  let matched = 0;
  let problem: string | undefined;
  expected.forEach((call, i) => {
    const at = actual.findIndex((candidate, j) => j >= cursor && matches(call, candidate));
    if (at >= 0) {
      matched++;
      cursor = at + 1;
    } else problem ??= `${missing(call, i, actual)}${actual.some((c, j) => j < cursor && matches(call, c)) ? ' (it came too early)' : ''}`;
  });
  return problem ? { matched, problem } : { matched };
}

/** The most expected calls matched each by a different call, in any order (augmenting paths: sets are small). */
function anyOrder(expected: readonly ExpectedToolCall[], actual: readonly ObservedToolCall[]): { matched: number; problem?: string } {
  const owner = new Array<number>(actual.length).fill(-1);
  const tryAssign = (e: number, seen: boolean[]): boolean => {
    for (let a = 0; a < actual.length; a++) {
      if (seen[a] || !matches(expected[e] as ExpectedToolCall, actual[a] as ObservedToolCall)) continue;
      seen[a] = true;
      if (owner[a] === -1 || tryAssign(owner[a] as number, seen)) {
        owner[a] = e;
        return true;
      }
    }
    return false;
  };
  let matched = 0;
  let problem: string | undefined;
  expected.forEach((call, e) => {
    if (tryAssign(e, new Array<boolean>(actual.length).fill(false))) matched++;
    else problem ??= missing(call, e, actual);
  });
  return problem ? { matched, problem } : { matched };
}

/** The same calls in the same order and no others; the score is the share of positions that match. */
function exact(expected: readonly ExpectedToolCall[], actual: readonly ObservedToolCall[]): { score: number; problem?: string } {
  let same = 0;
  let problem: string | undefined;
  for (let i = 0; i < Math.max(expected.length, actual.length); i++) {
    const e = expected[i];
    const a = actual[i];
    const why = !e
      ? `unexpected call #${i + 1} (${a?.name})`
      : !a
        ? `expected call #${i + 1} (${e.name}) was not made`
        : callMismatch(e, a);
    if (why) problem ??= e && a ? `call #${i + 1}: ${why}` : why;
    else same++;
  }
  const size = Math.max(expected.length, actual.length);
  return problem ? { score: size ? same / size : 1, problem } : { score: 1 };
}

/** The run's tool calls against the expected trajectory (`exact`, `in-order` or `any-order`). */
export function judgeTrajectory(expected: TrajectoryExpectation, run: RunObservation): CriterionResult {
  const actual = run.toolCalls;
  const made = `made: ${names(actual)}`;
  if (expected.mode === 'exact') {
    const { score, problem } = exact(expected.calls, actual);
    return problem
      ? failed('trajectory', `${problem} — ${made}`, score)
      : passed('trajectory', `exactly the ${actual.length} expected call(s)`);
  }
  const { matched, problem } = expected.mode === 'in-order' ? inOrder(expected.calls, actual) : anyOrder(expected.calls, actual);
  const score = expected.calls.length ? matched / expected.calls.length : 1;
  return problem
    ? failed('trajectory', `${problem} — ${made}`, score)
    : passed(
        'trajectory',
        `the ${expected.calls.length} expected call(s) ${expected.mode === 'in-order' ? 'in order' : 'in any order'} (${made})`,
      );
}
