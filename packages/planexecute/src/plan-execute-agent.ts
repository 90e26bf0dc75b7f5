import { LoopAgent, SequentialAgent, type Agent, type ChatModel, type Tool } from '@replan/core';
import type { z } from 'zod';
import { createExecutor } from './executor.js';
import { createPlanner, type StructuredOutput } from './planner.js';
import { createReplanner } from './replanner.js';
import type { ContextPolicy } from './context-policy.js';
import type { PlanMode } from './graph/graph-plan.js';
import { partsForMode } from './plan-mode-parts.js';

interface CommonOptions {
  /** Most executor → replanner passes (default 10). Reaching it ends the run `max_iterations`. */
  readonly maxIterations?: number;
  /** The root agent's name (default `plan_execute`); the loop is named `execute_replan`. */
  readonly name?: string;
  readonly description?: string;
  /**
   * `'linear'` (default): one step at a time. `'graph'`: the plan is a dependency graph and every
   * ready step starts at once. Every part must be built for the same mode (else `ConfigurationError`).
   */
  readonly mode?: PlanMode;
  /** Graph mode: most steps running at once (default 4). */
  readonly stepConcurrency?: number;
  /**
   * Graph mode: stream the planner's `plan` call and start each step as soon as its object is
   * complete in the stream and its dependencies are done, before the rest of the plan is written
   * (default false). Needs a planner from `createPlanner` with tool-call output; see
   * `StreamingGraphPlanner` for its events, resume, and what happens when the complete plan turns
   * out invalid after steps started.
   */
  readonly streamingPlan?: boolean;
}

/** Build from your own planner, executor and replanner (e.g. from `createPlanner` and friends). */
export interface PlanExecuteAgentOptions extends CommonOptions {
  readonly planner: Agent;
  readonly executor: Agent;
  readonly replanner: Agent;
}

/** The one-call form: one model (or one per role) and the executor's tools; defaults for the rest. */
export interface PlanExecuteQuickOptions extends CommonOptions {
  readonly model: ChatModel;
  readonly tools?: readonly Tool[];
  readonly planSchema?: z.ZodType;
  /** Models per role, overriding `model`. */
  readonly plannerModel?: ChatModel;
  readonly executorModel?: ChatModel;
  readonly replannerModel?: ChatModel;
  /** Most model calls of one step (the executor's `maxIterations`, default 10). */
  readonly stepMaxIterations?: number;
  readonly structuredOutput?: StructuredOutput;
  /** Which completed-step results the executor and the replanner see (defaults: see `ContextPolicy`). */
  readonly contextPolicy?: ContextPolicy;
}

const isQuick = (o: PlanExecuteAgentOptions | PlanExecuteQuickOptions): o is PlanExecuteQuickOptions =>
  'model' in o && o.model !== undefined && !('planner' in o);

/**
 * The plan–execute–replan agent: a `SequentialAgent` of the planner and a `LoopAgent` of executor
 * (in graph mode a `GraphExecutor`, wrapping a given `Executor`) and replanner that must end with the replanner's answer (`requireExit`): running out of
 * `maxIterations` ends the run `max_iterations` with an error event, `ExecutedSteps` and the
 * last `Plan` kept in the session.
 */
export function createPlanExecuteAgent(options: PlanExecuteAgentOptions | PlanExecuteQuickOptions): SequentialAgent {
  const mode = options.mode ?? 'linear';
  const parts = isQuick(options) ? defaultAgents(options, mode) : options;
  const { planner, executor, replanner } = partsForMode(mode, parts, options.stepConcurrency, options.streamingPlan);
  const loop = new LoopAgent({
    name: 'execute_replan',
    description: 'Runs a step, then revises the plan or answers.',
    subAgents: [executor, replanner],
    maxIterations: options.maxIterations ?? 10,
    requireExit: true,
  });
  return new SequentialAgent({
    name: options.name ?? 'plan_execute',
    description: options.description ?? 'Plans, executes the plan step by step, and replans until it can answer.',
    subAgents: [planner, loop],
  });
}

function defaultAgents(o: PlanExecuteQuickOptions, mode: PlanMode): { planner: Agent; executor: Agent; replanner: Agent } {
  const planSchema = { mode, ...(o.planSchema ? { planSchema: o.planSchema } : {}) };
  const contextPolicy = o.contextPolicy ? { contextPolicy: o.contextPolicy } : {};
  return {
    planner: createPlanner({
      model: o.plannerModel ?? o.model,
      ...planSchema,
      ...(o.tools ? { tools: o.tools } : {}),
      ...(o.structuredOutput ? { structuredOutput: o.structuredOutput } : {}),
    }),
    executor: createExecutor({
      model: o.executorModel ?? o.model,
      ...(o.tools ? { tools: o.tools } : {}),
      ...(o.stepMaxIterations !== undefined ? { maxIterations: o.stepMaxIterations } : {}),
      ...contextPolicy,
    }),
    replanner: createReplanner({ model: o.replannerModel ?? o.model, ...planSchema, ...contextPolicy }),
  };
}
