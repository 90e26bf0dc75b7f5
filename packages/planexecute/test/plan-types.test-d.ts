import { describe, expectTypeOf, test } from 'vitest';
import { z } from 'zod';
import type { AgentEvent, ChatModel, EventError, FinalAnswer, SequentialAgent } from '@replan/core';
import {
  createPlanExecuteAgent,
  createPlanner,
  createReplanner,
  defaultPlanSchema,
  planExecuteEventKind,
  type DefaultPlan,
  type ExecutedGraphStep,
  type ExecutedStep,
  type GraphPlan,
  type GraphStep,
  type PlanExecuteAgent,
  type PlanExecuteEventKind,
  planExecuteState,
  createExecutor,
  type PlanDiff,
} from '@replan/planexecute';

declare const model: ChatModel;
declare const event: AgentEvent;

describe('plan types', () => {
  test('the default and graph plans', () => {
    type Estimate = {
      tokens?: number | undefined;
      cost?: number | undefined;
      modelCalls?: number | undefined;
      timeMs?: number | undefined;
    };
    expectTypeOf<DefaultPlan>().toEqualTypeOf<{ steps: string[]; estimates?: Estimate[] | undefined }>();
    expectTypeOf<GraphStep>().toEqualTypeOf<{ id: string; task: string; dependsOn: string[]; estimate?: Estimate | undefined }>();
    expectTypeOf<GraphPlan>().toEqualTypeOf<{ steps: GraphStep[] }>();
  });

  test('createPlanner keeps the type of its planSchema', () => {
    const planSchema = z.object({
      goal: z.string(),
      steps: z.array(z.object({ tool: z.string(), why: z.string() })),
    });
    const planner = createPlanner({ model, planSchema });
    expectTypeOf(planner.givenSchema).toEqualTypeOf<typeof planSchema>();
    const parts = { executor: createExecutor({ model }), replanner: createReplanner({ model }) };
    expectTypeOf(createPlanExecuteAgent({ planner, ...parts })).toEqualTypeOf<
      PlanExecuteAgent<{ goal: string; steps: { tool: string; why: string }[] }>
    >();

    // Without a planSchema the plan is the agent's mode's: `{ steps: string[] }`, or the graph plan.
    const plain = createPlanner({ model });
    expectTypeOf(createPlanExecuteAgent({ planner: plain, ...parts })).toEqualTypeOf<PlanExecuteAgent<DefaultPlan>>();
    expectTypeOf(createPlanExecuteAgent({ planner: plain, ...parts, mode: 'graph' })).toEqualTypeOf<PlanExecuteAgent<GraphPlan>>();
    const replanner = createReplanner({ model, planSchema });
    expectTypeOf(replanner.planSchema).toEqualTypeOf<typeof planSchema>();
  });

  test('createReplanner types its buildInput with the plan of its planSchema', () => {
    const planSchema = z.object({ steps: z.array(z.object({ tool: z.string() })) });
    createReplanner({
      model,
      planSchema,
      buildInput: (input) => {
        expectTypeOf(input.plan).toEqualTypeOf<{ steps: { tool: string }[] }>();
        return [];
      },
    });
  });

  test('wrong planner options do not type-check', () => {
    // @ts-expect-error a plan schema is a zod schema, not a JSON Schema object
    createPlanner({ model, planSchema: { type: 'object' } });
    // @ts-expect-error the mode is 'linear' or 'graph'
    createPlanner({ model, mode: 'dag' });
    // @ts-expect-error a planner needs a model
    createPlanner({ planSchema: defaultPlanSchema });
  });

  test('createPlanExecuteAgent: from parts or from one model; the result is a SequentialAgent typed with its plan', () => {
    const fromParts = createPlanExecuteAgent({
      planner: createPlanner({ model }),
      executor: createExecutor({ model }),
      replanner: createReplanner({ model }),
    });
    // Was `SequentialAgent` (issue 15: a PlanExecuteAgent, still a SequentialAgent, carrying its plan type).
    expectTypeOf(fromParts).toEqualTypeOf<PlanExecuteAgent<DefaultPlan>>();
    expectTypeOf(fromParts).toExtend<SequentialAgent>();
    const quick = createPlanExecuteAgent({ model, planSchema: z.object({ steps: z.array(z.string()) }), maxIterations: 5 });
    expectTypeOf(quick).toEqualTypeOf<PlanExecuteAgent<{ steps: string[] }>>();
    expectTypeOf(createPlanExecuteAgent({ model })).toEqualTypeOf<PlanExecuteAgent<DefaultPlan>>();
    expectTypeOf(createPlanExecuteAgent({ model, mode: 'graph' })).toEqualTypeOf<PlanExecuteAgent<GraphPlan>>();
    const custom = z.object({ goal: z.string(), steps: z.array(z.object({ tool: z.string(), why: z.string() })) });
    expectTypeOf(createPlanExecuteAgent({ model, planSchema: custom })).toEqualTypeOf<PlanExecuteAgent<z.output<typeof custom>>>();
    const graphParts = createPlanExecuteAgent({
      mode: 'graph',
      planner: createPlanner({ model }),
      executor: createExecutor({ model }),
      replanner: createReplanner({ model }),
    });
    expectTypeOf(graphParts).toEqualTypeOf<PlanExecuteAgent<GraphPlan>>();
    // A custom planner agent carries no plan type.
    expectTypeOf(createPlanExecuteAgent({ planner: fromParts, executor: fromParts, replanner: fromParts })).toEqualTypeOf<
      PlanExecuteAgent<unknown>
    >();
    // @ts-expect-error outputKey is a state key (a string)
    createPlanExecuteAgent({ model, outputKey: 1 });
  });

  test('planExecuteState reads an agent’s keys typed with its plan', () => {
    const custom = z.object({ goal: z.string(), steps: z.array(z.object({ tool: z.string(), why: z.string() })) });
    const agent = createPlanExecuteAgent({ name: 'research', model, planSchema: custom });
    const state = planExecuteState({}, agent);
    expectTypeOf(state.plan).toEqualTypeOf<{ goal: string; steps: { tool: string; why: string }[] } | undefined>();
    expectTypeOf(state.executedSteps).toEqualTypeOf<readonly ExecutedStep<{ tool: string; why: string }>[]>();
    const graph = planExecuteState({}, createPlanExecuteAgent({ model, mode: 'graph' }));
    expectTypeOf(graph.plan).toEqualTypeOf<GraphPlan | undefined>();
    expectTypeOf(graph.executedSteps).toEqualTypeOf<readonly ExecutedGraphStep[]>();
    // Without an agent: the default-named agent's keys, plan unknown.
    expectTypeOf(planExecuteState({}).plan).toEqualTypeOf<unknown>();
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
      | 'planning'
      | 'repair'
      | 'plan-step'
      | 'plan'
      | 'revised-plan'
      | 'step-progress'
      | 'step-result'
      | 'answer'
      | 'compensation'
      | 'plan-review'
      | 'plan-reviewed'
      | 'plan-rejected'
      | 'error'
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
        // Without the agent the plan type is unknown (pass the agent to type it: see below).
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
      case 'plan-review':
        expectTypeOf(k.interruptId).toEqualTypeOf<string>();
        expectTypeOf(k.role).toEqualTypeOf<'planner' | 'replanner'>();
        expectTypeOf(k.diff).toEqualTypeOf<PlanDiff | undefined>();
        expectTypeOf(k.reason).toEqualTypeOf<string | undefined>();
        break;
      case 'plan-reviewed':
        expectTypeOf(k.answer).toEqualTypeOf<'approve' | 'edit'>();
        expectTypeOf(k.plan).toEqualTypeOf<unknown>();
        break;
      case 'plan-rejected':
        expectTypeOf(k.feedback).toEqualTypeOf<string>();
        break;
      case 'compensation':
        expectTypeOf(k.phase).toEqualTypeOf<'call' | 'result'>();
        break;
      default:
        expectTypeOf(k).toEqualTypeOf<{ readonly kind: 'error'; readonly error: EventError }>();
    }
  });

  test('given the agent, the plan and its steps are typed with the agent’s planSchema', () => {
    const custom = z.object({ goal: z.string(), steps: z.array(z.object({ tool: z.string(), why: z.string() })) });
    type Plan = z.output<typeof custom>;
    type Step = { tool: string; why: string };
    const agent = createPlanExecuteAgent({ name: 'research', model, planSchema: custom });
    const k = planExecuteEventKind(event, agent);
    expectTypeOf(k).toEqualTypeOf<PlanExecuteEventKind<Plan> | undefined>();
    if (!k) return;
    switch (k.kind) {
      case 'plan':
        expectTypeOf(k.plan).toEqualTypeOf<Plan>();
        break;
      case 'revised-plan':
        expectTypeOf(k.plan).toEqualTypeOf<Plan>();
        expectTypeOf(k.appendedSteps).toEqualTypeOf<readonly ExecutedStep<Step>[]>();
        break;
      case 'step-progress':
        expectTypeOf(k.step).toEqualTypeOf<Step>();
        break;
      case 'step-result':
        expectTypeOf(k.executedStep).toEqualTypeOf<ExecutedStep<Step>>();
        break;
      case 'plan-review':
      case 'plan-reviewed':
      case 'plan-rejected':
        expectTypeOf(k.plan).toEqualTypeOf<Plan>();
        break;
    }
    const graph = planExecuteEventKind(event, createPlanExecuteAgent({ model, mode: 'graph' }));
    if (graph?.kind === 'step-result') expectTypeOf(graph.executedStep).toEqualTypeOf<ExecutedGraphStep>();
    if (graph?.kind === 'plan') expectTypeOf(graph.plan).toEqualTypeOf<GraphPlan>();
  });
});
