import type { ChatModel } from '@replan/core';
import { show } from '../matchers/arg-matcher.js';
import type { RunObservation } from '../run/run-observation.js';
import type { AnswerExpectation } from '../set/eval-case.js';
import { type CriterionResult, failed, passed } from './criterion-result.js';
import { judgeAnswer } from './judge-criterion.js';

/**
 * The run's answer against the expectation: a string equal to it (both trimmed), a RegExp that
 * matches it, a function that returns `true` for it, or an LLM judge's verdict. No answer fails.
 */
export async function judgeAnswerExpectation(
  expected: AnswerExpectation,
  run: RunObservation,
  defaultJudge: ChatModel | undefined,
  signal?: AbortSignal,
): Promise<CriterionResult> {
  const answer = run.answer;
  if (answer === undefined) return failed('answer', `the run gave no answer (status ${run.status})`);
  if (typeof expected === 'string')
    return answer.trim() === expected.trim()
      ? passed('answer', 'the expected answer')
      : failed('answer', `expected ${show(expected.trim())}, got ${show(answer.trim())}`);
  if (expected instanceof RegExp)
    return new RegExp(expected.source, expected.flags.replace('g', '')).test(answer)
      ? passed('answer', `matches ${expected}`)
      : failed('answer', `${show(answer)} does not match ${expected}`);
  if (typeof expected === 'function') {
    try {
      return (await expected(answer)) === true
        ? passed('answer', `accepted by ${expected.name || 'the function'}`)
        : failed('answer', `${show(answer)} was not accepted by ${expected.name || 'the function'}`);
    } catch (error) {
      return failed('answer', `the answer check threw: ${(error as Error).message ?? String(error)}`);
    }
  }
  const model = expected.judge.model ?? defaultJudge;
  // defineEvalSet refuses a judge without a model; a set built by hand may still lack one.
  if (!model) return failed('answer', 'expect.answer.judge has no model: give defineEvalSet({ judge }) or judge.model');
  return judgeAnswer({
    model,
    rubric: expected.judge.rubric,
    input: run.input,
    answer,
    ...(expected.judge.threshold !== undefined ? { threshold: expected.judge.threshold } : {}),
    ...(signal ? { signal } : {}),
  });
}
