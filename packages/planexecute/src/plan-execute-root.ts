import {
  ConfigurationError,
  MaxIterationsError,
  SequentialAgent,
  type Agent,
  type AgentEvent,
  type FinalAnswer,
  type Guardrails,
  type InvocationContext,
} from '@replan/core';
import { assertAgentName } from '@replan/core/agent-kit';
import type { PartNames } from './base/part-scope.js';
import { DEFAULT_PLAN_EXECUTE_NAME, type PlanExecuteKeys } from './base/session-keys.js';
import type { ResolvedPlanMemory } from './base/plan-memory-options.js';
import { keepPlan } from './memory/keep-plan.js';

/** The longest plan–execute agent name: its loop is named `<name>_execute_replan`, and agent names have at most 64 characters. */
const MAX_NAME_LENGTH = 64 - '_execute_replan'.length;

/**
 * The names of a plan–execute agent's parts: `planner`, `executor`, `replanner` and the loop
 * `execute_replan` for the default-named agent (as before), else the same prefixed with its name
 * (`research_planner`, …, `research_execute_replan`) so two of them fit in one tree.
 */
export function partNamesFor(name: string): PartNames {
  assertAgentName(name);
  if (name === DEFAULT_PLAN_EXECUTE_NAME)
    return { planner: 'planner', executor: 'executor', replanner: 'replanner', loop: 'execute_replan' };
  if (name.length > MAX_NAME_LENGTH)
    throw new ConfigurationError(
      `createPlanExecuteAgent: name "${name}" is too long: at most ${MAX_NAME_LENGTH} characters, since its parts are named "<name>_execute_replan" and so on (agent names have at most 64).`,
    );
  if (name === 'app' || name === 'temp')
    throw new ConfigurationError(
      `createPlanExecuteAgent: name "${name}" would prefix its state keys with "${name}:", the ${name}-scope prefix; choose another name.`,
    );
  return { planner: `${name}_planner`, executor: `${name}_executor`, replanner: `${name}_replanner`, loop: `${name}_execute_replan` };
}

export interface PlanExecuteRootOptions {
  readonly name: string;
  readonly description: string;
  readonly planner: Agent;
  readonly loop: Agent;
  readonly keys: PlanExecuteKeys;
  readonly outputKey: string | undefined;
  /** What `outputKey` stores of the answer: its structured value (a custom respond schema) or its text. */
  readonly storeStructured: boolean;
  /** The agent whose `final` is the answer (the replanner). */
  readonly answerAuthor: string;
  readonly guardrails?: Guardrails | undefined;
  /** True when the replanner is ours: it answers from the steps done when the budget runs low. */
  readonly answersOnExhausted: boolean;
  /** `memory`: the plan this run ran is kept when it ends. */
  readonly memory?: ResolvedPlanMemory | undefined;
}

/**
 * A plan–execute agent (built by `createPlanExecuteAgent`): a `SequentialAgent` of the planner and
 * the execute–replan loop, with its state `keys` and, when given, the `outputKey` it stores its
 * answer under. `Plan` is the plan type its `planSchema` gives (type only: read the stored plan
 * with `planExecuteState(session.state, agent)`).
 */
export class PlanExecuteAgent<Plan = unknown> extends SequentialAgent {
  /** The state keys this agent's parts read and write (`SessionKeys` for the default-named agent). */
  readonly keys: PlanExecuteKeys;
  /** Where the answer is stored in state, if anywhere. */
  readonly outputKey: string | undefined;
  /** True when its replanner answers from the steps done once the budget runs low (`limits.onExhausted: 'answer'`). */
  readonly answersOnExhausted: boolean;
  /** Type only: the plan type inferred from `planSchema` (never set at run time). */
  declare readonly planType?: Plan;
  private readonly storeStructured: boolean;
  private readonly answerAuthor: string;
  private readonly loopName: string;
  private readonly plannerName: string;
  private readonly memory: ResolvedPlanMemory | undefined;

  constructor(options: PlanExecuteRootOptions) {
    super({
      name: options.name,
      description: options.description,
      subAgents: [options.planner, options.loop],
      ...(options.guardrails ? { guardrails: options.guardrails } : {}),
    });
    if (options.outputKey !== undefined && (typeof options.outputKey !== 'string' || !options.outputKey))
      throw new ConfigurationError(
        `createPlanExecuteAgent "${options.name}": outputKey must be a non-empty string, got ${JSON.stringify(options.outputKey)}.`,
      );
    if (options.outputKey !== undefined && Object.values(options.keys).includes(options.outputKey))
      throw new ConfigurationError(
        `createPlanExecuteAgent "${options.name}": outputKey "${options.outputKey}" is one of its own state keys; choose another key.`,
      );
    this.keys = options.keys;
    this.outputKey = options.outputKey;
    this.storeStructured = options.storeStructured;
    this.answerAuthor = options.answerAuthor;
    this.loopName = options.loop.name;
    this.answersOnExhausted = options.answersOnExhausted;
    this.plannerName = options.planner.name;
    this.memory = options.memory;
  }

  override async *run(ctx: InvocationContext): AsyncGenerator<AgentEvent, void, undefined> {
    const { memory } = this;
    if (!memory) return yield* this.runParts(ctx);
    const parts = { keys: this.keys, plannerName: this.plannerName, loopName: this.loopName };
    try {
      yield* this.runParts(ctx);
    } catch (error) {
      if (error instanceof MaxIterationsError) yield* keepPlan(ctx, memory, parts, 'max_iterations');
      throw error;
    }
    // Kept once the replanner answered (not when the run stopped for a person, an interrupt).
    const answerPath = `${ctx.path}/${this.loopName}/${this.answerAuthor}`;
    if (ctx.events.some((e) => e.invocationId === ctx.invocationId && e.path === answerPath && e.actions?.final && !e.partial))
      yield* keepPlan(ctx, memory, parts, 'completed');
  }

  private async *runParts(ctx: InvocationContext): AsyncGenerator<AgentEvent, void, undefined> {
    const outputKey = this.outputKey;
    if (outputKey === undefined) {
      yield* super.run(ctx);
      return;
    }
    // The answer event carries the stored value too, so it is written once, with the answer.
    const answerPath = `${ctx.path}/${this.loopName}/${this.answerAuthor}`;
    for await (const event of super.run(ctx)) {
      const final = event.actions?.final;
      if (!final || event.partial || event.path !== answerPath) yield event;
      else yield withState(event, outputKey, this.answerValue(final));
    }
  }

  private answerValue(final: FinalAnswer): unknown {
    return this.storeStructured && final.structured !== undefined ? final.structured : final.text;
  }
}

const withState = (event: AgentEvent, key: string, value: unknown): AgentEvent => ({
  ...event,
  actions: { ...event.actions, stateDelta: { ...event.actions?.stateDelta, [key]: value } },
});
