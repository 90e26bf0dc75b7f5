import { describe, expectTypeOf, test } from 'vitest';
import { z } from 'zod';
import type { AgentEvent, ChatModel, EventError, FinalAnswer, SequentialAgent } from '@replan/core';
import {
  createExecutor,
  createPlanExecuteAgent,
  createPlanner,
  createReplanner,
  defaultPlanSchema,
  graphPlanSchema,
  planExecuteEventKind,
  type DefaultPlan,
  type ExecutedGraphStep,
  type ExecutedStep,
  type GraphPlan,
  type GraphStep,
  type PlanExecuteEventKind,
} from '@replan/planexecute';

declare const model: ChatModel;
declare const event: AgentEvent;

describe('plan types', () => {
  test('the default and graph plans', () => {
    expectTypeOf<DefaultPlan>().toEqualTypeOf<{ steps: string[] }>();
    expectTypeOf<GraphStep>().toEqualTypeOf<{ id: string; task: string; dependsOn: string[] }>();
    expectTypeOf<GraphPlan>().toEqualTypeOf<{ steps: GraphStep[] }>();
  });

  test('createPlanner keeps the type of its planSchema', () => {
    const planSchema = z.object({
      goal: z.string(),
      steps: z.array(z.object({ tool: z.string(), why: z.string() })),
    });
    const planner = createPlanner({ model, planSchema });
    expectTypeOf(planner.planSchema).toEqualTypeOf<typeof planSchema>();
    expectTypeOf<z.output<typeof planner.planSchema>>().toEqualTypeOf<{ goal: string; steps: { tool: string; why: string }[] }>();

    // Without a planSchema it is the default `{ steps: string[] }` (graph mode swaps it at run time, not in the type).
    const plain = createPlanner({ model });
    expectTypeOf(plain.planSchema).toEqualTypeOf<typeof defaultPlanSchema>();
    const graph = createPlanner({ model, mode: 'graph', planSchema: graphPlanSchema });
    expectTypeOf<z.output<typeof graph.planSchema>>().toEqualTypeOf<GraphPlan>();
  });

  test('wrong planner options do not type-check', () => {
    // @ts-expect-error a plan schema is a zod schema, not a JSON Schema object
    createPlanner({ model, planSchema: { type: 'object' } });
    // @ts-expect-error the mode is 'linear' or 'graph'
    createPlanner({ model, mode: 'dag' });
    // @ts-expect-error a planner needs a model
    createPlanner({ planSchema: defaultPlanSchema });
  });

  test('createPlanExecuteAgent: from parts or from one model; the result is a SequentialAgent', () => {
    const fromParts = createPlanExecuteAgent({
      planner: createPlanner({ model }),
      executor: createExecutor({ model }),
      replanner: createReplanner({ model }),
    });
    expectTypeOf(fromParts).toEqualTypeOf<SequentialAgent>();
    const quick = createPlanExecuteAgent({ model, planSchema: z.object({ steps: z.array(z.string()) }), maxIterations: 5 });
    expectTypeOf(quick).toEqualTypeOf<SequentialAgent>();
    // @ts-expect-error it needs either the three parts or a model
    createPlanExecuteAgent({ maxIterations: 5 });
  });

  test('executed steps', () => {
    expectTypeOf<ExecutedStep['step']>().toEqualTypeOf<unknown>();
    expectTypeOf<ExecutedStep<string>['step']>().toEqualTypeOf<string>();
    expectTypeOf<ExecutedStep['result']>().toEqualTypeOf<string>();
    expectTypeOf<ExecutedGraphStep['dependsOn']>().toEqualTypeOf<readonly string[]>();
  });
});

describe('planExecuteEventKind narrows by `kind`', () => {
  test('the kinds', () => {
    expectTypeOf<PlanExecuteEventKind['kind']>().toEqualTypeOf<
      'planning' | 'repair' | 'plan-step' | 'plan' | 'revised-plan' | 'step-progress' | 'step-result' | 'answer' | 'error'
    >();
    // Events that are none of these (cursors, user input) classify as undefined.
    expectTypeOf(planExecuteEventKind(event)).toEqualTypeOf<PlanExecuteEventKind | undefined>();
  });

  test('each case of a switch sees only its own fields', () => {
    const k = planExecuteEventKind(event);
    if (!k) return;
    switch (k.kind) {
      case 'planning':
        expectTypeOf(k.agent).toEqualTypeOf<string>();
        expectTypeOf(k.partial).toEqualTypeOf<boolean>();
        break;
      case 'repair':
        expectTypeOf(k.attempt).toEqualTypeOf<number>();
        expectTypeOf(k.problem).toEqualTypeOf<string>();
        break;
      case 'plan-step':
        expectTypeOf(k.step).toEqualTypeOf<GraphStep>();
        break;
      case 'plan':
        // Not inferred from the planSchema yet: the plan is stored as plain JSON (issue 15 adds inference).
        expectTypeOf(k.plan).toEqualTypeOf<unknown>();
        expectTypeOf(k.problem).toEqualTypeOf<string | undefined>();
        break;
      case 'revised-plan':
        expectTypeOf(k.plan).toEqualTypeOf<unknown>();
        expectTypeOf(k.appendedSteps).toEqualTypeOf<readonly ExecutedStep[]>();
        // @ts-expect-error a revised plan carries `appendedSteps` (the step just judged), not `executedSteps`
        k.executedSteps;
        break;
      case 'step-progress':
        expectTypeOf(k.stepNumber).toEqualTypeOf<number>();
        expectTypeOf(k.stepId).toEqualTypeOf<string | undefined>();
        break;
      case 'step-result':
        expectTypeOf(k.executedStep).toEqualTypeOf<ExecutedStep | ExecutedGraphStep>();
        break;
      case 'answer':
        expectTypeOf(k.answer).toEqualTypeOf<FinalAnswer>();
        expectTypeOf(k.appendedSteps).toEqualTypeOf<readonly ExecutedStep[]>();
        break;
      default:
        expectTypeOf(k).toEqualTypeOf<{ readonly kind: 'error'; readonly error: EventError }>();
    }
  });
});
