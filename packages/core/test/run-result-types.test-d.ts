import { describe, expectTypeOf, test } from 'vitest';
import type { AgentEvent, ApprovalAnswer, GuardrailTrip, Interrupt, Run, RunResult, RunStatus, Runner, Usage } from '@replan/core';

declare const runner: Runner;

describe('RunResult', () => {
  test('status is a closed union', () => {
    expectTypeOf<RunStatus>().toEqualTypeOf<
      'completed' | 'interrupted' | 'max_iterations' | 'aborted' | 'failed' | 'budget_exceeded' | 'blocked'
    >();
    expectTypeOf<RunResult['status']>().toEqualTypeOf<RunStatus>();
  });

  test('its fields', () => {
    expectTypeOf<RunResult['output']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<RunResult['structured']>().toEqualTypeOf<unknown>();
    expectTypeOf<RunResult['sessionId']>().toEqualTypeOf<string>();
    expectTypeOf<RunResult['invocationId']>().toEqualTypeOf<string>();
    expectTypeOf<RunResult['interrupts']>().toEqualTypeOf<readonly Interrupt[]>();
    expectTypeOf<RunResult['usage']>().toEqualTypeOf<Usage>();
    expectTypeOf<RunResult['modelCalls']>().toEqualTypeOf<number>();
    expectTypeOf<RunResult['error']>().toEqualTypeOf<Error | undefined>();
    expectTypeOf<RunResult['guardrail']>().toEqualTypeOf<GuardrailTrip | undefined>();
  });

  test('a switch on status is exhaustive', () => {
    const describeStatus = (result: RunResult): string => {
      switch (result.status) {
        case 'completed':
          return result.output ?? '';
        case 'interrupted':
          return result.interrupts.map((i) => i.id).join(', ');
        case 'max_iterations':
        case 'aborted':
        case 'failed':
        case 'budget_exceeded':
          return result.error?.message ?? result.status;
        case 'blocked':
          return `${result.guardrail?.name}: ${result.guardrail?.reason}`;
        default:
          expectTypeOf(result.status).toBeNever();
          return result.status;
      }
    };
    expectTypeOf(describeStatus).returns.toBeString();
  });

  test('it is read-only', () => {
    const readOnly = (result: RunResult) => {
      // @ts-expect-error a result is not changed after the run
      result.status = 'failed';
    };
    expectTypeOf(readOnly).toBeFunction();
  });

  test('runner.run gives a Run: events to iterate, a RunResult to await', () => {
    const run = runner.run({ userId: 'u', input: 'hi' });
    expectTypeOf(run).toEqualTypeOf<Run>();
    expectTypeOf(run).toExtend<AsyncIterable<AgentEvent>>();
    expectTypeOf(run.result()).resolves.toEqualTypeOf<RunResult>();
  });
});

describe('approval answers', () => {
  test('ApprovalAnswer is true, false or { approved, message? }', async () => {
    const { isApprovalAnswer } = await import('@replan/core');
    expectTypeOf<ApprovalAnswer>().toEqualTypeOf<boolean | { readonly approved: boolean; readonly message?: string }>();
    const value: unknown = true;
    if (isApprovalAnswer(value)) expectTypeOf(value).toEqualTypeOf<ApprovalAnswer>();
  });

  test('resume({ approvals }) only takes approval answers', () => {
    runner.resume({ userId: 'u', sessionId: 's', approvals: { 'c1:approval': true } });
    runner.resume({ userId: 'u', sessionId: 's', approvals: { 'c1:approval': { approved: false, message: 'no' } } });
    // @ts-expect-error an approval answer is not a string
    runner.resume({ userId: 'u', sessionId: 's', approvals: { 'c1:approval': 'yes' } });
    // @ts-expect-error approved is a boolean
    runner.resume({ userId: 'u', sessionId: 's', approvals: { 'c1:approval': { approved: 'yes' } } });
    // @ts-expect-error the message is a string
    runner.resume({ userId: 'u', sessionId: 's', approvals: { 'c1:approval': { approved: false, message: 1 } } });
    // values stay open for other interrupts' answers
    runner.resume({ userId: 'u', sessionId: 's', values: { 'c1:1': { anything: 1 } } });
  });
});
