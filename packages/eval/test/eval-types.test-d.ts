import { describe, expectTypeOf, test } from 'vitest';
import type { Runner } from '@replan/core';
import { arg, defineEvalSet, type EvalCase, type EvalReport, type RunEvalOptions, runEval } from '@replan/eval';

describe('@replan/eval types', () => {
  test('defineEvalSet keeps the literal set; answer functions get the answer text', () => {
    const set = defineEvalSet({
      name: 'typed',
      cases: [
        {
          name: 'a',
          input: 'hi',
          expect: {
            answer: (answer) => {
              expectTypeOf(answer).toEqualTypeOf<string>();
              return answer.length > 0;
            },
            trajectory: {
              mode: 'in-order',
              calls: [{ name: 't', args: { q: /x/, n: arg.any('number'), id: arg.ignore, deep: { list: [1, 'two'] } } }],
            },
          },
        },
      ],
    });
    expectTypeOf(set.name).toEqualTypeOf<'typed'>();
  });

  test('wrong modes, statuses and expectation names do not compile', () => {
    // @ts-expect-error: not a trajectory mode
    const mode: EvalCase['expect'] = { trajectory: { mode: 'strict', calls: [] } };
    // @ts-expect-error: not a RunStatus
    const status: EvalCase['expect'] = { status: 'done' };
    // @ts-expect-error: a typo of `answer`
    const typo: EvalCase['expect'] = { answr: 'x' };
    void [mode, status, typo];
  });

  test('runEval takes a runner or a factory of the case, and resolves with the report', () => {
    expectTypeOf<RunEvalOptions['makeRunner']>().toEqualTypeOf<
      ((evalCase: EvalCase, attempt: number) => Runner | Promise<Runner>) | undefined
    >();
    expectTypeOf(runEval).returns.toEqualTypeOf<Promise<EvalReport>>();
  });
});
