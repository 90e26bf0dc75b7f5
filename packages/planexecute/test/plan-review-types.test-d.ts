import { describe, expectTypeOf, test } from 'vitest';
import type { ChatModel } from '@replan/core';
import {
  createPlanExecuteAgent,
  type DefaultPlan,
  type PlanDiff,
  type PlanReviewAnswer,
  type PlanReviewPayload,
} from '@replan/planexecute';
import { scriptPlanExecute, type PlanExecuteScript } from '@replan/planexecute/testing';

declare const model: ChatModel;

describe('plan review types', () => {
  test('the answers: approve, edit with a plan of the agent type, reject with feedback', () => {
    expectTypeOf<{ approve: true }>().toExtend<PlanReviewAnswer<DefaultPlan>>();
    expectTypeOf<{ edit: { steps: string[] } }>().toExtend<PlanReviewAnswer<DefaultPlan>>();
    expectTypeOf<{ reject: string }>().toExtend<PlanReviewAnswer<DefaultPlan>>();
    expectTypeOf<{ approve: false }>().not.toExtend<PlanReviewAnswer<DefaultPlan>>();
    expectTypeOf<{ edit: { steps: number[] } }>().not.toExtend<PlanReviewAnswer<DefaultPlan>>();
  });

  test('the payload carries the plan and, for a revision, its diff', () => {
    expectTypeOf<PlanReviewPayload<DefaultPlan>['plan']>().toEqualTypeOf<DefaultPlan>();
    expectTypeOf<PlanReviewPayload['diff']>().toEqualTypeOf<PlanDiff | undefined>();
    expectTypeOf<PlanReviewPayload['role']>().toEqualTypeOf<'planner' | 'replanner'>();
  });

  test('review and maxStalls are options of createPlanExecuteAgent', () => {
    createPlanExecuteAgent({ model, review: { plan: true, replans: 'changed' }, maxStalls: 2 });
    createPlanExecuteAgent({ model, mode: 'graph', review: { replans: 'always' } });
    // @ts-expect-error: replans is 'changed' | 'always' | 'never'
    createPlanExecuteAgent({ model, review: { replans: 'sometimes' } });
  });

  test('scriptPlanExecute scripts a plan type of its own', () => {
    const script: PlanExecuteScript<DefaultPlan> = { plan: { steps: ['a'] }, steps: { a: 'done' }, answer: 'ok' };
    expectTypeOf(scriptPlanExecute(script).model).toExtend<ChatModel>();
  });
});
