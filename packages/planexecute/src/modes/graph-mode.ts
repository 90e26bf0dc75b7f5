import { ConfigurationError } from '@replan/core';
import { GraphExecutor } from '../graph/graph-executor.js';
import { graphPlanSchema, type GraphPlan } from '../graph/graph-plan.js';
import { formatGraphReplannerPrompt, GraphExecutorPrompt, GraphPlannerPrompt, GraphReplannerPrompt } from '../graph/graph-prompts.js';
import { graphReplannerInput } from '../graph/graph-replanner-input.js';
import { checkGraphPlan, type FinishedSteps } from '../graph/graph-validation.js';
import { StreamingGraphPlanner, type StreamingPlannerSource } from '../graph/streaming-planner.js';
import { diffById, unfinishedById } from '../review/plan-diff.js';
import { graphRetries } from '../review/graph-retries.js';
import { taskRetryKey } from '../review/retry-key.js';
import type { PlanMode } from './plan-mode.js';
import { stepsOf } from '../base/plan-schema.js';

/**
 * The graph mode: the plan is `{ steps: [{ id, task, dependsOn }] }`, validated as a DAG; every
 * step whose dependencies are done starts at once (bounded by `stepConcurrency`), a step sees only
 * the results it depends on (`referenced`), the replanner a summary. Steps are compared by id, a
 * failed step retried under a new id with the same task counting as the same step.
 */
export const graphMode: PlanMode<GraphPlan> = {
  name: 'graph',
  planSchema: graphPlanSchema,
  prompts: { planner: GraphPlannerPrompt, executor: GraphExecutorPrompt, replanner: GraphReplannerPrompt },
  contextPolicy: { executor: 'referenced', replanner: 'summarized' },
  validate(plan, finished) {
    const checked = checkGraphPlan(plan, finished);
    return checked.ok ? undefined : checked.problem;
  },
  executor(options, keys) {
    const { buildInput, buildGraphInput, ...own } = options;
    if (buildInput && !buildGraphInput)
      throw new ConfigurationError(
        "createPlanExecuteAgent: the executor's buildInput builds linear step prompts; in mode: 'graph' pass buildGraphInput (it receives a graph step's input).",
      );
    return new GraphExecutor({ ...own, ...(buildGraphInput ? { buildInput: buildGraphInput } : {}) }, keys);
  },
  async replannerInput(ctx, options) {
    const budget = ctx.services.budget.view();
    const input = {
      ...graphReplannerInput(ctx.state, options.contextPolicy, options.keys, options.maxResultChars),
      ...(budget ? { budget } : {}),
    };
    const messages = options.buildGraphInput
      ? await options.buildGraphInput(input)
      : formatGraphReplannerPrompt(input, { planTool: 'plan', respondTool: 'respond' }, options.instruction);
    const finished: FinishedSteps = {
      succeeded: new Set(input.executedSteps.filter((s) => s.error === undefined).map((s) => s.id)),
      failed: new Set(input.executedSteps.filter((s) => s.error !== undefined).map((s) => s.id)),
    };
    const ran = new Set(input.executedSteps.map((s) => s.id));
    const notRun = input.steps.filter((s) => !ran.has(s.id));
    return { messages, appended: [], contextPolicy: input.context.info, finished, notRun };
  },
  diff(a, b, progress) {
    // Graph ids that ran are never reused: a failed step can come back only under a new id.
    const retries = graphRetries(a, progress.failedSince, progress.succeededSince, b);
    return diffById(unfinishedById(a, progress.succeededSince, retries), b, retries);
  },
  retryKey: taskRetryKey,
  // A step's run is labelled with its id (see `GraphExecutor`); the stored step keeps every field.
  stepOf: (ctx, keys) => stepsOf(ctx.state[keys.Plan]).find((s) => (s as { id?: unknown } | null)?.id === ctx.label?.id),
  streamingPlanner(planner, executor) {
    return new StreamingGraphPlanner({ planner: planner as StreamingPlannerSource, executor: executor as GraphExecutor });
  },
};
