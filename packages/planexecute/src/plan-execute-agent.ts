import { ConfigurationError, LoopAgent, type Agent, type ChatModel } from '@replan/core';
import type { z } from 'zod';
import { createExecutor } from './base/executor.js';
import { createPlanner } from './planner.js';
import { createReplanner } from './replanner.js';
import { planModeOf, type PlanModeOption } from './modes/mode-of.js';
import type { PlanMode } from './modes/plan-mode.js';
import { isPlanPart, type PartBinding } from './base/part-scope.js';
import { PlanExecuteAgent, partNamesFor } from './plan-execute-root.js';
import { DEFAULT_PLAN_EXECUTE_NAME, planExecuteKeys } from './base/session-keys.js';
import { resolveMaxStalls, resolveReview, withPlanReview } from './review/with-plan-review.js';
import type { PlanCheck } from './policy/plan-check.js';
import { withPlanGrants } from './modes/grant-mode.js';
import { undoOffered, withUndo } from './compensation/compensating-replanner.js';
import { resolvePlanMemory } from './base/plan-memory-options.js';
import type { PlanExecuteAgentOptions, PlanOfPlanner, PlanOfSchema, RoleMiddlewareMap } from './plan-execute-agent-options.js';

export type {
  PlanExecuteAgentOptions,
  PlanOfPlanner,
  PlanOfSchema,
  RoleMiddleware,
  RoleMiddlewareMap,
} from './plan-execute-agent-options.js';

/** The three roles of a plan–execute agent. */
type Role = 'planner' | 'executor' | 'replanner';
const ROLES: readonly Role[] = ['planner', 'executor', 'replanner'];

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
