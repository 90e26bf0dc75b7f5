import type { LifecycleInfo, RunLifecycleEvent, RunObserver, RunResult } from '@replan/core';
import type { UsageBreakdown } from '@replan/core/agent-kit';
import { describe, expectTypeOf, it } from 'vitest';
import type { SessionTotals } from '../src/events/run-result.js';

describe('RunObserver types', () => {
  it('lifecycle events narrow by kind', () => {
    const narrow = (e: RunLifecycleEvent) => {
      if (e.kind === 'model-call-end') expectTypeOf(e).toEqualTypeOf<LifecycleInfo<'model-call-end'>>();
      if (e.kind === 'tool-call-end') expectTypeOf(e).toEqualTypeOf<LifecycleInfo<'tool-call-end'>>();
    };
    expectTypeOf(narrow).toBeFunction();
  });

  it('LifecycleInfo<kind> is what the observer method of that kind receives', () => {
    expectTypeOf<Parameters<NonNullable<RunObserver['onModelCallEnd']>>[0]>().toEqualTypeOf<LifecycleInfo<'model-call-end'>>();
    expectTypeOf<Parameters<NonNullable<RunObserver['onRunStart']>>[0]>().toEqualTypeOf<LifecycleInfo<'run-start'>>();
    expectTypeOf<LifecycleInfo<'resume'>['kind']>().toEqualTypeOf<'resume'>();
  });

  it('every observer method is optional', () => {
    expectTypeOf<Record<string, never>>().toMatchTypeOf<RunObserver>();
    expectTypeOf<RunObserver['onModelCallEnd']>().toEqualTypeOf<((info: LifecycleInfo<'model-call-end'>) => void) | undefined>();
  });

  it('RunResult carries cost, the breakdown and the session totals', () => {
    expectTypeOf<RunResult['cost']>().toEqualTypeOf<number>();
    expectTypeOf<RunResult['breakdown']>().toEqualTypeOf<UsageBreakdown>();
    expectTypeOf<RunResult['session']>().toEqualTypeOf<SessionTotals>();
  });
});
