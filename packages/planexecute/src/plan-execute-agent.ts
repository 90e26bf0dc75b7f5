import { ConfigurationError, LoopAgent, type Agent, type ChatModel, type Guardrails, type Tool, type Middleware } from '@replan/core';
import type { z } from 'zod';
import { createExecutor, Executor } from './executor.js';
import { createPlanner, Planner, type StructuredOutput } from './planner.js';
import { createReplanner, Replanner } from './replanner.js';
import type { ContextPolicy } from './context-policy.js';
import type { GraphPlan, PlanMode } from './graph/graph-plan.js';
import { GraphExecutor } from './graph/graph-executor.js';
import { partsForMode } from './plan-mode-parts.js';
import type { DefaultPlan } from './plan-schema.js';
import type { PartScope } from './part-scope.js';
import { PlanExecuteAgent, partNamesFor } from './plan-execute-root.js';
import { DEFAULT_PLAN_EXECUTE_NAME, planExecuteKeys } from './session-keys.js';
import type { PlanReviewOptions } from './review/plan-review-answer.js';
import { resolveMaxStalls, resolveReview, withPlanReview } from './review/with-plan-review.js';
import type { PlanCheck } from './policy/plan-check.js';
import { withCheckPlan } from './policy/with-check-plan.js';

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
}

/**
 * `'linear'` (default): one step at a time. `'graph'`: the plan is a dependency graph and every
 * ready step starts at once. Every part must be built for the same mode (else `ConfigurationError`).
 */
interface ModeOption<M extends PlanMode> {
  readonly mode?: M;
}

/**
 * Build from your own planner, executor and replanner (e.g. from `createPlanner` and friends).
 * Parts from the `create*` functions are given this agent's state keys (and, when built without
 * a `name`, names derived from its name); custom parts read and write `planExecuteKeys(name)`.
 */
export interface PlanExecuteAgentOptions<P extends Agent = Agent> extends CommonOptions, ModeOption<PlanMode> {
  readonly planner: P;
  readonly executor: Agent;
  readonly replanner: Agent;
  /** A plan policy (see `PlanCheck`); needs the planner and replanner of `createPlanner` / `createReplanner`. */
  readonly checkPlan?: PlanCheck<PlanOfPlanner<P>>;
}

/** The one-call form: one model (or one per role) and the executor's tools; defaults for the rest. */
export interface PlanExecuteQuickOptions<S extends z.ZodType | undefined = undefined, M extends PlanMode = PlanMode>
  extends CommonOptions,
    ModeOption<M> {
  readonly model: ChatModel;
  readonly tools?: readonly Tool[];
  /** The plan's zod schema (see `createPlanner`); the agent's plan type is inferred from it. */
  readonly planSchema?: S;
  /**
   * The planner's model (it writes the first plan), instead of `model`: e.g. a stronger reasoning
   * model for planning and a cheaper one for the steps. `model` stays required: it serves every role
   * not given its own model.
   */
  readonly plannerModel?: ChatModel;
  /** The executor's model (the ReAct loop that runs each step with `tools`), instead of `model`. */
  readonly executorModel?: ChatModel;
  /** The replanner's model (it revises the plan or gives the answer after each step), instead of `model`. */
  readonly replannerModel?: ChatModel;
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
  /**
   * A plan policy run on the plan and on every revision before it is accepted, and before review
   * (see `PlanCheck`): a refusal goes back to the model as a repair with its reason; after
   * `maxRepairs` (2) refusals the run fails with `PlanningError`. With `streamingPlan`, steps
   * start only once the whole plan passed the check.
   */
  readonly checkPlan?: PlanCheck<PlanOfSchema<S, M>>;
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
export type PlanOfSchema<S, M> = S extends z.ZodType ? z.output<S> : M extends 'graph' ? GraphPlan : DefaultPlan;

/** The plan type of a planner: what its `planSchema` gives (`unknown` for a planner without one). */
export type PlanOfPlanner<A> = A extends { readonly planSchema: infer S extends z.ZodType } ? z.output<S> : unknown;

type AnyOptions = PlanExecuteAgentOptions | PlanExecuteQuickOptions<z.ZodType | undefined>;

/** The one-call form is any options without parts; `defaultAgents` says which role then lacks a model. */
const isQuick = (o: AnyOptions): o is PlanExecuteQuickOptions<z.ZodType | undefined> =>
  !('planner' in o) && !('executor' in o) && !('replanner' in o);

/**
 * The plan–execute–replan agent: a `SequentialAgent` of the planner and a `LoopAgent` of executor
 * (in graph mode a `GraphExecutor`, wrapping a given `Executor`) and replanner that must end with
 * the replanner's answer (`requireExit`): running out of `maxIterations` ends the run
 * `max_iterations` with an error event, `ExecutedSteps` and the last `Plan` kept in the session.
 * Its plan type is inferred from `planSchema` (the planner's, in the parts form).
 */
export function createPlanExecuteAgent<S extends z.ZodType | undefined = undefined, M extends PlanMode = 'linear'>(
  options: PlanExecuteQuickOptions<S, M>,
): PlanExecuteAgent<PlanOfSchema<S, M>>;
export function createPlanExecuteAgent<P extends Agent>(options: PlanExecuteAgentOptions<P>): PlanExecuteAgent<PlanOfPlanner<P>>;
export function createPlanExecuteAgent(options: AnyOptions): PlanExecuteAgent<unknown> {
  const mode = options.mode ?? 'linear';
  const name = options.name ?? DEFAULT_PLAN_EXECUTE_NAME;
  const scope: PartScope = { keys: planExecuteKeys(name), names: partNamesFor(name) };
  const given = isQuick(options) ? defaultAgents(options, mode) : options;
  for (const role of ['planner', 'executor', 'replanner'] as const)
    if (!given[role])
      throw new ConfigurationError(
        `createPlanExecuteAgent: no ${role}. Pass \`planner\`, \`executor\` and \`replanner\` (from createPlanner, createExecutor, createReplanner), or none of them and a \`model\`.`,
      );
  const scoped = withCheckPlan(
    { planner: inScope(given.planner, scope), executor: inScope(given.executor, scope), replanner: inScope(given.replanner, scope) },
    options.checkPlan as PlanCheck | undefined,
  );
  const review = resolveReview(options.review);
  const maxStalls = resolveMaxStalls(options.maxStalls);
  // A reviewed or checked plan starts no step before approval: the plain planner writes it (nothing to overlap).
  const streamingPlan = (review?.plan || options.checkPlan) && mode === 'graph' ? false : options.streamingPlan;
  const { planner, executor, replanner } = partsForMode(mode, scoped, options.stepConcurrency, streamingPlan);
  const gated = withPlanReview({ planner, replanner }, { review, maxStalls, keys: scope.keys });
  const loop = new LoopAgent({
    name: scope.names.loop,
    description: 'Runs a step, then revises the plan or answers.',
    subAgents: [executor, gated.replanner],
    maxIterations: options.maxIterations ?? 10,
    requireExit: true,
  });
  return new PlanExecuteAgent({
    name,
    description: options.description ?? 'Plans, executes the plan step by step, and replans until it can answer.',
    planner: gated.planner,
    loop,
    keys: scope.keys,
    outputKey: options.outputKey,
    // The default respond schema's `{ response }` is the answer text; a schema of one's own is the structured answer.
    storeStructured: !(replanner instanceof Replanner) || replanner.options.respondSchema !== undefined,
    answerAuthor: replanner.name,
    guardrails: options.guardrails,
  });
}

/** A part from our `create*` functions, given the agent's keys (and its derived name); a custom agent as it is. */
function inScope(agent: Agent, scope: PartScope): Agent {
  if (agent instanceof Planner || agent instanceof Executor || agent instanceof GraphExecutor || agent instanceof Replanner)
    return agent.inScope(scope);
  return agent;
}

function defaultAgents(
  o: PlanExecuteQuickOptions<z.ZodType | undefined>,
  mode: PlanMode,
): { planner: Agent; executor: Agent; replanner: Agent } {
  // The types require `model`; plain JavaScript (or a cast) may omit it, which failed deep inside with a TypeError.
  for (const [role, own] of [
    ['planner', o.plannerModel],
    ['executor', o.executorModel],
    ['replanner', o.replannerModel],
  ] as const)
    if (!(own ?? o.model))
      throw new ConfigurationError(
        `createPlanExecuteAgent: the ${role} has no model. Pass \`model\` (the model of every role not given its own) or \`${role}Model\`.`,
      );
  const planSchema = { mode, ...(o.planSchema ? { planSchema: o.planSchema } : {}) };
  const contextPolicy = o.contextPolicy ? { contextPolicy: o.contextPolicy } : {};
  const middleware = (role: keyof RoleMiddlewareMap) => {
    const given = Array.isArray(o.middleware) ? o.middleware : (o.middleware as RoleMiddlewareMap | undefined)?.[role];
    return given?.length ? { middleware: given } : {};
  };
  return {
    planner: createPlanner({
      model: o.plannerModel ?? o.model,
      ...planSchema,
      ...middleware('planner'),
      ...(o.tools ? { tools: o.tools } : {}),
      ...(o.structuredOutput ? { structuredOutput: o.structuredOutput } : {}),
    }),
    executor: createExecutor({
      model: o.executorModel ?? o.model,
      ...(o.tools ? { tools: o.tools } : {}),
      ...(o.stepMaxIterations !== undefined ? { maxIterations: o.stepMaxIterations } : {}),
      ...contextPolicy,
      ...middleware('executor'),
    }),
    replanner: createReplanner({
      model: o.replannerModel ?? o.model,
      ...planSchema,
      ...contextPolicy,
      ...middleware('replanner'),
    }),
  };
}
