import { ConfigurationError } from '@replan/core';
import { Executor } from '../base/executor.js';
import { linearReplannerContext } from '../base/linear-context.js';
import { defaultPlanSchema, stepsOf, type DefaultPlan } from '../base/plan-schema.js';
import { ExecutorPrompt, formatReplannerPrompt, PlannerPrompt, ReplannerPrompt } from '../base/prompts.js';
import { diffByContent, unfinishedByContent } from '../review/plan-diff.js';
import { contentRetryKey } from '../review/retry-key.js';
import { readExecutionState, type ExecutionContext } from '../base/session-keys.js';
import { pendingStep } from './pending-step.js';
import type { PlanMode } from './plan-mode.js';

/**
 * The linear mode (the default): a list of steps, run one at a time, each shown every earlier
 * result (`full`, Eino's behaviour). Steps are compared by content.
 */
export const linearMode: PlanMode<DefaultPlan> = {
  name: 'linear',
  planSchema: defaultPlanSchema,
  prompts: { planner: PlannerPrompt, executor: ExecutorPrompt, replanner: ReplannerPrompt },
  contextPolicy: { executor: 'full', replanner: 'full' },
  validate: () => undefined,
  executor(options, keys) {
    const { stepConcurrency, buildGraphInput, ...own } = options;
    if (stepConcurrency !== undefined)
      throw new ConfigurationError(
        "createPlanExecuteAgent: stepConcurrency only applies with mode: 'graph' (a linear plan runs one step at a time).",
      );
    return new Executor(own, keys);
  },
  async replannerInput(ctx, options) {
    const state = readExecutionState(ctx.state, options.keys);
    const pending = pendingStep(ctx, options.keys);
    const executedSteps = pending ? [...state.executedSteps, pending] : state.executedSteps;
    const context = linearReplannerContext(executedSteps, options.contextPolicy, options.maxResultChars);
    const budget = ctx.services.budget.view();
    const input: ExecutionContext = { ...state, executedSteps, context, ...(budget ? { budget } : {}) };
    const messages = options.buildInput
      ? await options.buildInput(input)
      : formatReplannerPrompt(input, { planTool: 'plan', respondTool: 'respond' }, options.instruction);
    // The step just run is the plan's first: the rest did not run (all of them when none ran).
    const notRun = stepsOf(state.plan).slice(pending ? 1 : 0);
    return { messages, appended: pending ? [pending] : [], contextPolicy: context.info, notRun };
  },
  diff: (a, b, progress) => diffByContent(unfinishedByContent(a, progress.succeededSince), b),
  retryKey: contentRetryKey,
  // The executor runs the plan's first step; the plan does not change while it runs.
  stepOf: (ctx, keys) => stepsOf(ctx.state[keys.Plan])[0],
};
