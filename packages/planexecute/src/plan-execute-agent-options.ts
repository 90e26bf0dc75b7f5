import type { ChatModel, Guardrails, Middleware, Tool, Agent } from '@replan/core';
import type { z } from 'zod';
import type { StructuredOutput } from './planner.js';
import type { ContextPolicy } from './base/context-policy.js';
import type { GraphPlan } from './graph/graph-plan.js';
import type { PlanModeOption } from './modes/mode-of.js';
import type { PlanMode } from './modes/plan-mode.js';
import type { DefaultPlan } from './base/plan-schema.js';
import type { PlanReviewOptions } from './review/plan-review-answer.js';
import type { PlanCheck } from './policy/plan-check.js';
import type { PlanExecuteMemoryOptions } from './base/plan-memory-options.js';

interface CommonOptions {
  /** Most executor → replanner passes (default 10). Reaching it ends the run `max_iterations`. */
  readonly maxIterations?: number;
  /**
   * The root agent's name (default `plan_execute`). The names of its parts and its state keys
   * derive from it: the default-named agent has `planner`, `executor`, `replanner`, the loop
   * `execute_replan` and the keys `SessionKeys`; an agent named `research` has `research_planner`,
   * …, `research_execute_replan` and the keys `research:Plan`, … (see `planExecuteKeys`), so
   * several plan–execute agents can share one tree and one session. Parts given with a `name`
   * keep it.
   */
  readonly name?: string;
  readonly description?: string;
  /**
   * Stores the answer in session state under this key, with the answer event, for the next agent
   * of a pipeline: its text, or its structured value when the replanner has a `respondSchema` of
   * its own.
   */
  readonly outputKey?: string;
  /**
   * Graph mode: stream the planner's `plan` call and start each step as soon as its object is
   * complete in the stream and its dependencies are done, before the rest of the plan is written
   * (default false). Needs a planner built here or by `createPlanner`, with tool-call output; see
   * `StreamingGraphPlanner` for its events, resume, and what happens when the complete plan turns
   * out invalid after steps started.
   */
  readonly streamingPlan?: boolean;
  /**
   * Plans a person reviews before they run (see `PlanReviewOptions`): the plan (and, as chosen,
   * revisions) stops the run with an interrupt of reason `plan_review`, answered with a
   * `PlanReviewAnswer` (approve, edit or reject with feedback). Needs the planner and replanner of
   * `createPlanner` / `createReplanner` (the one-call form has them). With `streamingPlan`, steps
   * start once the plan is approved.
   */
  readonly review?: PlanReviewOptions;
  /**
   * Replanner revisions in a row that repeat the plan before them with no newly finished step
   * before the run counts as stalled (default 3): with `review`, the plan then goes to review with
   * the reason; without, the run ends `failed` with a `PlanStalledError` naming the plan.
   */
  readonly maxStalls?: number;
  /**
   * Checks on the run's user input (before the planner's first call) and on the final answer
   * (before the run returns it). A tripwire ends the run `blocked`, naming the guardrail and its
   * reason; a guardrail that throws fails the run with a `GuardrailError`. See `Guardrails`.
   */
  readonly guardrails?: Guardrails;
  /** Undo the finished calls of every failed step at the next replan (default false); see docs/plan-execute.md, "Undoing steps". */
  readonly compensateDropped?: boolean;
}

/**
 * The options of `createPlanExecuteAgent`, the one way to build a plan–execute agent: a `model`
 * (or a model per role) and the executor's `tools`, with defaults for the rest; any role may instead
 * be an agent you built with that role's factory (`createPlanner`, `createExecutor`,
 * `createReplanner`) or wrote yourself. `mode`, `checkPlan` and `stepConcurrency` are set here only:
 * the agent binds its parts to them (and to its state keys and part names).
 */
export interface PlanExecuteAgentOptions<S extends z.ZodType | undefined = undefined, M extends PlanModeOption = PlanModeOption>
  extends CommonOptions {
  /**
   * `'linear'` (default): one step at a time. `'graph'`: the plan is a dependency graph and every
   * ready step starts at once. Or a `PlanMode` of your own.
   */
  readonly mode?: M;
  /** The model of every role not given its own model or agent. */
  readonly model?: ChatModel;
  /**
   * The planner's model (it writes the first plan), instead of `model`: e.g. a stronger reasoning
   * model for planning and a cheaper one for the steps.
   */
  readonly plannerModel?: ChatModel;
  /** The executor's model (the ReAct loop that runs each step with `tools`), instead of `model`. */
  readonly executorModel?: ChatModel;
  /** The replanner's model (it revises the plan or gives the answer after each step), instead of `model`. */
  readonly replannerModel?: ChatModel;
  /** The planner, instead of one built from `plannerModel`/`model`: from `createPlanner`, or an agent of your own. */
  readonly planner?: Agent;
  /** The executor, instead of one built from `executorModel`/`model` and `tools`: from `createExecutor`, or your own. */
  readonly executor?: Agent;
  /** The replanner, instead of one built from `replannerModel`/`model`: from `createReplanner`, or your own. */
  readonly replanner?: Agent;
  /** The executor's tools (listed in the planner's prompt too); for the parts this agent builds. */
  readonly tools?: readonly Tool[];
  /** The plan's zod schema (see `createPlanner`); the agent's plan type is inferred from it. */
  readonly planSchema?: S;
  /** Most model calls of one step (the executor's `maxIterations`, default 10). */
  readonly stepMaxIterations?: number;
  readonly structuredOutput?: StructuredOutput;
  /** Which completed-step results the executor and the replanner see (defaults: see `ContextPolicy`). */
  readonly contextPolicy?: ContextPolicy;
  /**
   * Middleware (docs/middleware.md): one list for every role, or a list per role. E.g.
   * `[offloadToolResults({ maxTokens: 2000 }), compaction(), promptCache()]`: the executor offloads
   * large tool results and compacts long steps, the replanner is shown step results capped at the
   * same size, and every role sends one prompt-cache key per session and role. None by default.
   */
  readonly middleware?: RoleMiddleware;
  /** Graph mode: most steps running at once (default 4). */
  readonly stepConcurrency?: number;
  /**
   * A plan policy run on the plan and on every revision before it is accepted, and before review
   * (see `PlanCheck`): a refusal goes back to the model as a repair with its reason; after
   * `maxRepairs` (2) refusals the run fails with `PlanningError`. With `streamingPlan`, steps
   * start only once the whole plan passed the check. Needs the planner and replanner to be built
   * here or with `createPlanner` / `createReplanner`.
   */
  readonly checkPlan?: PlanCheck<PlanOfSchema<S, M>>;
  /**
   * Long-term memory of plans (`@replan/memory`, docs/memory.md): each run's plan and outcome kept,
   * similar past plans shown to the planner, and with `reusePlans` a close one reused instead of
   * planning (see `PlanExecuteMemoryOptions`). Needs the planner from `createPlanner`.
   */
  readonly memory?: PlanExecuteMemoryOptions;
}

/** Middleware per plan–execute role (a role left out gets none). */
export interface RoleMiddlewareMap {
  readonly planner?: readonly Middleware[];
  readonly executor?: readonly Middleware[];
  readonly replanner?: readonly Middleware[];
}

/** The plan–execute agent's `middleware`: one list for every role, or one per role. */
export type RoleMiddleware = readonly Middleware[] | RoleMiddlewareMap;

/** The plan type of a `planSchema` (or of the mode's default plan when there is none). */
export type PlanOfSchema<S, M> = S extends z.ZodType
  ? z.output<S>
  : M extends PlanMode<infer P>
    ? P
    : M extends 'graph'
      ? GraphPlan
      : DefaultPlan;

/** The plan type of a planner: what its `planSchema` gives, else the mode's plan (`unknown` for an agent of your own). */
export type PlanOfPlanner<A, M = 'linear'> = A extends { readonly givenSchema: infer S } ? PlanOfSchema<S, M> : unknown;
