import { ConfigurationError, LoopAgent, type Agent, type ChatModel, type Guardrails, type Tool, type Middleware } from '@replan/core';
import type { z } from 'zod';
import { createExecutor } from './base/executor.js';
import { createPlanner, type StructuredOutput } from './planner.js';
import { createReplanner } from './replanner.js';
import type { ContextPolicy } from './base/context-policy.js';
import type { GraphPlan } from './graph/graph-plan.js';
import { planModeOf, type PlanModeOption } from './modes/mode-of.js';
import type { PlanMode } from './modes/plan-mode.js';
import type { DefaultPlan } from './base/plan-schema.js';
import { isPlanPart, type PartBinding } from './base/part-scope.js';
import { PlanExecuteAgent, partNamesFor } from './plan-execute-root.js';
import { DEFAULT_PLAN_EXECUTE_NAME, planExecuteKeys } from './base/session-keys.js';
import type { PlanReviewOptions } from './review/plan-review-answer.js';
import { resolveMaxStalls, resolveReview, withPlanReview } from './review/with-plan-review.js';
import type { PlanCheck } from './policy/plan-check.js';
import { withPlanGrants } from './modes/grant-mode.js';
import { undoOffered, withUndo } from './compensation/compensating-replanner.js';
import { type PlanExecuteMemoryOptions, resolvePlanMemory } from './base/plan-memory-options.js';

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

/** The three roles of a plan–execute agent. */
type Role = 'planner' | 'executor' | 'replanner';
const ROLES: readonly Role[] = ['planner', 'executor', 'replanner'];

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

/**
 * The plan–execute–replan agent: a `SequentialAgent` of the planner and a `LoopAgent` of executor
 * (the mode's step runner) and replanner that must end with the replanner's answer
 * (`requireExit`): running out of `maxIterations` ends the run `max_iterations` with an error
 * event, `ExecutedSteps` and the last `Plan` kept in the session. Its plan type is inferred from
 * `planSchema` (or the given planner's).
 */
export function createPlanExecuteAgent<P extends Agent, M extends PlanModeOption = 'linear'>(
  options: PlanExecuteAgentOptions<undefined, M> & { readonly planner: P },
): PlanExecuteAgent<PlanOfPlanner<P, M>>;
export function createPlanExecuteAgent<S extends z.ZodType | undefined = undefined, M extends PlanModeOption = 'linear'>(
  options: PlanExecuteAgentOptions<S, M>,
): PlanExecuteAgent<PlanOfSchema<S, M>>;
export function createPlanExecuteAgent(options: PlanExecuteAgentOptions<z.ZodType | undefined>): PlanExecuteAgent<unknown> {
  const name = options.name ?? DEFAULT_PLAN_EXECUTE_NAME;
  const scope = { keys: planExecuteKeys(name), names: partNamesFor(name) };
  const given = givenParts(options);
  const review = resolveReview(options.review);
  const mode = withPlanGrants(planModeOf(options.mode), review, given.executor, scope.keys);
  const checkPlan = checkPlanOf(options.checkPlan, given);
  const undo = undoOffered(options, given.executor);
  const memory = resolvePlanMemory(options.memory, isPlanPart(given.planner) ? undefined : given.planner.name);
  const binding: PartBinding = { ...scope, mode, checkPlan, stepConcurrency: options.stepConcurrency, undo, memory };
  const bind = (agent: Agent) => (isPlanPart(agent) ? agent.bind(binding) : agent);
  const executor = bind(given.executor);
  const replanner = bind(given.replanner);
  let planner = bind(given.planner);
  const maxStalls = resolveMaxStalls(options.maxStalls);
  // A reviewed or checked plan starts no step before approval: the plain planner writes it (nothing to overlap).
  if (options.streamingPlan && !review?.plan && !checkPlan) planner = streamingPlanner(mode, given, planner, executor);
  const gated = withPlanReview(
    { planner, replanner },
    { review, maxStalls, keys: scope.keys, ours: { planner: isPlanPart(given.planner), replanner: isPlanPart(given.replanner) } },
  );
  const loop = new LoopAgent({
    name: scope.names.loop,
    description: 'Runs a step, then revises the plan or answers.',
    subAgents: [executor, undo ? withUndo(gated.replanner, scope.keys, options.compensateDropped) : gated.replanner],
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
    storeStructured: (replanner as { readonly structuredAnswer?: boolean }).structuredAnswer ?? true,
    answerAuthor: replanner.name,
    guardrails: options.guardrails,
    // A replanner of one's own does not know to answer from partial work: 'answer' runs are refused.
    answersOnExhausted: isPlanPart(given.replanner),
    memory,
  });
}

/** `streamingPlan: true`: the mode's streaming planner around our planner, starting our executor's steps. */
function streamingPlanner(mode: PlanMode, given: Record<Role, Agent>, planner: Agent, executor: Agent): Agent {
  if (!mode.streamingPlanner)
    throw new ConfigurationError(
      `createPlanExecuteAgent: streamingPlan needs a mode that can start steps while the plan streams (mode: 'graph'); mode '${mode.name}' cannot.`,
    );
  for (const role of ['planner', 'executor'] as const)
    if (!isPlanPart(given[role]))
      throw new ConfigurationError(
        `createPlanExecuteAgent: streamingPlan needs the ${role} to be built here or with create${role === 'planner' ? 'Planner' : 'Executor'}, but "${given[role].name}" is a custom agent; drop streamingPlan or use that factory.`,
      );
  return mode.streamingPlanner(planner, executor);
}

/** `checkPlan`, checked: a function, and the planner and replanner ours (it runs inside their decision, a refusal being a repair). */
function checkPlanOf(checkPlan: PlanCheck | undefined, given: Record<Role, Agent>): PlanCheck | undefined {
  if (checkPlan === undefined) return undefined;
  if (typeof checkPlan !== 'function')
    throw new ConfigurationError(
      `createPlanExecuteAgent: checkPlan must be a function (plan, ctx) => { ok: true } | { ok: false, reason }, got ${typeof checkPlan}.`,
    );
  for (const role of ['planner', 'replanner'] as const) {
    const maker = role === 'planner' ? 'createPlanner' : 'createReplanner';
    if (!isPlanPart(given[role]))
      throw new ConfigurationError(
        `createPlanExecuteAgent: checkPlan needs a ${role} from ${maker}, but "${given[role].name}" is a custom agent: the check runs inside its decision, where a refusal is sent back to the model as a repair. Use ${maker}, or check the plan in your own agent.`,
      );
  }
  return checkPlan;
}

/** Each role's agent: the one given, else one built from its model and the shared options. */
function givenParts(o: PlanExecuteAgentOptions<z.ZodType | undefined>): Record<Role, Agent> {
  const models: Record<Role, ChatModel | undefined> = {
    planner: o.plannerModel ?? o.model,
    executor: o.executorModel ?? o.model,
    replanner: o.replannerModel ?? o.model,
  };
  for (const role of ROLES)
    if (!o[role] && !models[role])
      throw new ConfigurationError(
        `createPlanExecuteAgent: the ${role} has no model. Pass \`model\` (the model of every role not given its own), \`${role}Model\`, or a \`${role}\` agent (e.g. from create${role[0]?.toUpperCase()}${role.slice(1)}).`,
      );
  if (o.planSchema && o.planner)
    throw new ConfigurationError(
      'createPlanExecuteAgent: planSchema is given here and a planner is given too; set the schema in one place (createPlanner({ planSchema }) and createReplanner({ planSchema }), or here without a planner).',
    );
  const planSchema = o.planSchema ? { planSchema: o.planSchema } : {};
  const contextPolicy = o.contextPolicy ? { contextPolicy: o.contextPolicy } : {};
  const middleware = (role: Role) => {
    const list = Array.isArray(o.middleware) ? o.middleware : (o.middleware as RoleMiddlewareMap | undefined)?.[role];
    return list?.length ? { middleware: list } : {};
  };
  const { tools } = o;
  return {
    planner:
      o.planner ??
      createPlanner({
        model: models.planner as ChatModel,
        ...planSchema,
        ...middleware('planner'),
        ...(tools ? { tools } : {}),
        ...(o.structuredOutput ? { structuredOutput: o.structuredOutput } : {}),
      }),
    executor:
      o.executor ??
      createExecutor({
        model: models.executor as ChatModel,
        ...(tools ? { tools } : {}),
        ...(o.stepMaxIterations !== undefined ? { maxIterations: o.stepMaxIterations } : {}),
        ...contextPolicy,
        ...middleware('executor'),
      }),
    replanner:
      o.replanner ?? createReplanner({ model: models.replanner as ChatModel, ...planSchema, ...contextPolicy, ...middleware('replanner') }),
  };
}
