import type { Agent, InvocationContext, Message } from '@replan/core';
import type { z } from 'zod';
import type { ContextPolicy, ContextPolicyInfo, ResolvedContextPolicy } from '../base/context-policy.js';
import type { ExecutorOptions } from '../base/executor-options.js';
import type { GraphReplannerInput } from '../graph/graph-prompts.js';
import type { FinishedSteps } from '../graph/graph-validation.js';
import type { PromptTemplate } from '../base/prompts.js';
import type { PlanDiff } from '../review/plan-diff.js';
import type { SucceededStep } from '../review/plan-history.js';
import type { ExecutionContext, PlanExecuteKeys } from '../base/session-keys.js';

/** What the replanner hands its mode to build one turn's input. */
export interface ReplannerInputOptions {
  readonly keys: PlanExecuteKeys;
  readonly contextPolicy: ResolvedContextPolicy;
  /** Step results longer than this are shown shortened (from `offloadToolResults`). */
  readonly maxResultChars: number | undefined;
  /** The replanner's `instruction`, replacing the system text of the mode's replanner prompt. */
  readonly instruction: string | undefined;
  /** The replanner's `buildInput` (linear mode). */
  readonly buildInput?: ((input: ExecutionContext) => readonly Message[] | Promise<readonly Message[]>) | undefined;
  /** The replanner's `buildGraphInput` (graph mode). */
  readonly buildGraphInput?: ((input: GraphReplannerInput) => readonly Message[] | Promise<readonly Message[]>) | undefined;
}

/** One replanner turn's input, as its mode builds it. */
export interface ReplannerTurnInput {
  readonly messages: readonly Message[];
  /** What the decision event appends to `ExecutedSteps` (linear mode: the step just run). */
  readonly appended: readonly unknown[];
  readonly contextPolicy: ContextPolicyInfo;
  /** The finished steps a revision is validated against (`validate`'s second argument). */
  readonly finished?: FinishedSteps;
  /** The plan's steps not run (yet): what an answer given when the budget runs low lists as `notRun` (default: every step of `Plan`). */
  readonly notRun?: readonly unknown[];
}

/** The executor's options as the plan–execute agent binds them: its own, and the agent's `stepConcurrency`. */
export interface ModeExecutorOptions extends ExecutorOptions {
  readonly stepConcurrency?: number;
}

/** What has happened since the plan a person approved, for `diff`. */
export interface PlanProgress {
  /** Steps that succeeded since the approval, oldest first. */
  readonly succeededSince: readonly SucceededStep[];
  /** Ids of the graph steps that failed since the approval. */
  readonly failedSince: readonly string[];
}

/**
 * A plan mode (`createPlanExecuteAgent({ mode })`): everything that differs between a list of steps
 * run one at a time (`linear`) and a dependency graph whose ready steps run at once (`graph`). The
 * planner, executor, replanner and plan review ask their mode and never test which one it is.
 */
export interface PlanMode<Plan = unknown> {
  /** `'linear'`, `'graph'`, or your mode's name (shown in errors). */
  readonly name: string;
  /** The plan's default zod schema (a `planSchema` given to the agent replaces it). */
  readonly planSchema: z.ZodType<Plan>;
  /** The default prompts of its planner, executor and replanner. */
  readonly prompts: { readonly planner: PromptTemplate; readonly executor: PromptTemplate; readonly replanner: PromptTemplate };
  /** Which completed-step results the executor and the replanner see by default. */
  readonly contextPolicy: { readonly executor: ContextPolicy; readonly replanner: ContextPolicy };
  /**
   * Checks a plan that parsed against the schema (a graph: a DAG over known ids; `finished`: steps
   * that already ran, which a revision may depend on but not reuse): the problem, or undefined when
   * it is fine. A problem is sent back to the model as a repair.
   */
  validate(plan: unknown, finished?: FinishedSteps): string | undefined;
  /** The agent that runs the plan's steps, built from the executor's options and the agent's state keys. */
  executor(options: ModeExecutorOptions, keys: PlanExecuteKeys): Agent;
  /** The replanner's input for one turn: its messages, what it appends to `ExecutedSteps`, the finished steps. */
  replannerInput(ctx: InvocationContext, options: ReplannerInputOptions): Promise<ReplannerTurnInput>;
  /** What a revision (`b`) changes in the approved steps (`a`) still to run, given what ran since the approval. */
  diff(a: readonly unknown[], b: readonly unknown[], progress: PlanProgress): PlanDiff;
  /** What makes a step "the same step" when the replanner issues it again (stall counting and review). */
  retryKey(step: unknown): string;
  /**
   * The plan step a step run is carrying out, as stored in `Plan` (`ctx`: the step's ReAct run).
   * Plan grants (`review.grants`) read its `tools`; a mode without it cannot have grants.
   */
  stepOf?(ctx: InvocationContext, keys: PlanExecuteKeys): unknown;
  /**
   * Starts steps while the planner's answer still streams (`streamingPlan: true`); a mode without it
   * refuses `streamingPlan`. Given the bound planner and this mode's executor.
   */
  streamingPlanner?(planner: Agent, executor: Agent): Agent;
}
