import type {
  ModelCallEndInfo,
  RunLifecycleEvent,
  RunObserver,
  RunResult,
  SessionTotals,
  ToolCallEndInfo,
  UsageBreakdown,
} from '@replan/core';
import { describe, expectTypeOf, it } from 'vitest';

describe('RunObserver types', () => {
  it('lifecycle events narrow by kind', () => {
    const narrow = (e: RunLifecycleEvent) => {
      if (e.kind === 'model-call-end') expectTypeOf(e).toEqualTypeOf<ModelCallEndInfo>();
      if (e.kind === 'tool-call-end') expectTypeOf(e).toEqualTypeOf<ToolCallEndInfo>();
    };
    expectTypeOf(narrow).toBeFunction();
  });

  it('every observer method is optional', () => {
    expectTypeOf<Record<string, never>>().toMatchTypeOf<RunObserver>();
    expectTypeOf<RunObserver['onModelCallEnd']>().toEqualTypeOf<((info: ModelCallEndInfo) => void) | undefined>();
  });

  it('RunResult carries cost, the breakdown and the session totals', () => {
    expectTypeOf<RunResult['cost']>().toEqualTypeOf<number>();
    expectTypeOf<RunResult['breakdown']>().toEqualTypeOf<UsageBreakdown>();
    expectTypeOf<RunResult['session']>().toEqualTypeOf<SessionTotals>();
  });
});
