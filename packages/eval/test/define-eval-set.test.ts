import { ScriptedModel } from '@replan/core/testing';
import { describe, expect, it } from 'vitest';
import { arg, defineEvalSet, type EvalInputError } from '@replan/eval';

/** The problems `defineEvalSet` reports for a set (it must throw an `EvalInputError` of kind `set`). */
function problemsOf(set: unknown): readonly string[] {
  try {
    defineEvalSet(set as never);
  } catch (error) {
    expect(error).toMatchObject({ name: 'EvalInputError', kind: 'set' });
    expect((error as Error).message).toContain('cannot run; fix:');
    return (error as EvalInputError).problems;
  }
  throw new Error('defineEvalSet accepted the set');
}

const ok = { name: 'a', input: 'hi', expect: { status: 'completed' as const } };

describe('defineEvalSet', () => {
  it('returns a valid set as it is (matchers of every kind included)', () => {
    const set = {
      name: 'valid',
      judge: new ScriptedModel(),
      cases: [
        ok,
        {
          name: 'b',
          input: { role: 'user' as const, content: [{ type: 'text' as const, text: 'hi' }] },
          passRate: 0.5,
          expect: {
            trajectory: {
              mode: 'any-order' as const,
              calls: [{ name: 't', args: { a: /x/, b: arg.any('number'), c: (v: unknown) => !!v, d: { e: [1, null] }, f: arg.ignore } }],
            },
            answer: { judge: { rubric: 'Polite.', threshold: 0.8 } },
          },
        },
      ],
    };
    expect(defineEvalSet(set)).toBe(set);
  });

  it('names what to fix for a set without name or cases', () => {
    expect(problemsOf({ cases: [ok] })).toEqual(['set.name: Invalid input: expected string, received undefined']);
    expect(problemsOf({ name: 'x', cases: [] })).toEqual(['set.cases: has no cases: add at least one']);
    expect(problemsOf(undefined)[0]).toMatch(/^set: /);
  });

  it('names the case (by its name) and the field for a bad case', () => {
    expect(problemsOf({ name: 'x', cases: [{ ...ok, expect: {} }] })).toEqual([
      'case "a".expect: expects nothing: give at least one of trajectory, plan, answer, status, maxCost, maxLatencyMs',
    ]);
    expect(problemsOf({ name: 'x', cases: [{ ...ok, expect: { answr: 'typo' } }] })[0]).toMatch(
      /^case "a"\.expect: Unrecognized key: "answr"/,
    );
    expect(problemsOf({ name: 'x', cases: [{ ...ok, expect: { status: 'done' } }] })).toEqual([
      'case "a".expect.status: must be one of completed, interrupted, max_iterations, aborted, failed, budget_exceeded, blocked',
    ]);
    expect(problemsOf({ name: 'x', cases: [{ ...ok, expect: { trajectory: { mode: 'strict', calls: [] } } }] })).toEqual([
      'case "a".expect.trajectory.mode: must be "exact", "in-order" or "any-order"',
    ]);
    expect(
      problemsOf({
        name: 'x',
        cases: [{ ...ok, expect: { trajectory: { mode: 'exact', calls: [{ name: 't', args: { when: new Map() } }] } } }],
      })[0],
    ).toMatch(/^case "a"\.expect\.trajectory\.calls\[0\]\.args: /);
    expect(problemsOf({ name: 'x', cases: [{ ...ok, passRate: 2 }] })).toEqual(['case "a".passRate: must be between 0 and 1']);
    expect(problemsOf({ name: 'x', cases: [{ ...ok, expect: { maxCost: -1 } }] })).toEqual(['case "a".expect.maxCost: must be 0 or more']);
    expect(problemsOf({ name: 'x', cases: [{ ...ok, expect: { answer: 42 } }] })).toEqual([
      'case "a".expect.answer: must be a string, a RegExp, a function of the answer, or { judge: { rubric } }',
    ]);
    expect(problemsOf({ name: 'x', cases: [{ ...ok, input: 7 }] })).toEqual([
      'case "a".input: must be text, a user message or content blocks',
    ]);
    expect(problemsOf({ name: 'x', cases: [{ ...ok, name: ' ' }] })).toEqual(['set.cases[0].name: must not be empty']);
  });

  it('refuses duplicate case names and a judge without a model, listing every problem at once', () => {
    const problems = problemsOf({
      name: 'x',
      cases: [ok, ok, { name: 'judged', input: 'hi', expect: { answer: { judge: { rubric: 'Kind.' } } } }],
    });
    expect(problems).toEqual([
      'case "a": the name is used twice; case names must be unique (they name the report\'s rows)',
      'case "judged": expect.answer.judge has no model; give defineEvalSet({ judge }) or expect.answer.judge.model',
    ]);
  });
});
