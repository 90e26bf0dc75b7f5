import {
  MaxIterationsError,
  ReActAgent,
  type Agent,
  type AgentEvent,
  type ChatModel,
  type InvocationContext,
  type Message,
  type Middleware,
  type ModelSettings,
  type SchemaInput,
  type Tool,
} from '@replan/core';
import { assertAgentName } from '@replan/core/agent-kit';
import { tagged, tagOf } from './event-kind.js';
import { stepsOf, stepText } from './plan-schema.js';
import { assertModel } from './assert-model.js';
import { formatExecutorPrompt } from './prompts.js';
import { resolveContextPolicy, type ContextPolicy, type ResolvedContextPolicy } from './context-policy.js';
import { linearExecutorContext } from './linear-context.js';
import { asStepResult, stepOutcome, toolErrorsOf } from './step-outcome.js';
import { readExecutionState, SessionKeys, type ExecutedStep, type ExecutorInput, type PlanExecuteKeys } from './session-keys.js';
import type { PartScope } from './part-scope.js';

export interface ExecutorOptions {
  readonly model: ChatModel;
  readonly tools?: readonly Tool[];
  /** Replaces the system text of `ExecutorPrompt`. */
  readonly instruction?: string;
  /** Replaces the whole default input (system message included), built from the step's context. */
  readonly buildInput?: (input: ExecutorInput) => readonly Message[] | Promise<readonly Message[]>;
  /**
   * Most model calls for one step (default 10). Reaching it fails the step: `ExecutedStep.error`
   * says so and the replanner decides what to do (the run goes on).
   */
  readonly maxIterations?: number;
  /** A structured step result (zod v4 or v3, or JSON Schema: see `ReActAgent`'s `outputSchema`), stored in `ExecutedStep.structured`. */
  readonly outputSchema?: SchemaInput;
  readonly toolConcurrency?: number;
  readonly settings?: ModelSettings;
  readonly name?: string;
  readonly description?: string;
  /**
   * Which completed-step results the step's prompt shows (default `'full'` in linear mode,
   * `'referenced'` in graph mode). Recorded in `meta.contextPolicy` of the step's events.
   */
  readonly contextPolicy?: ContextPolicy;
  /**
   * The step loop's middleware (see `ReActAgent`'s `middleware`), e.g. `compaction()` (older turns
   * of a long step are summarised; the objective, the plan and the step's task stay verbatim),
   * `offloadToolResults()`, `promptCache()` (one key per session for all of this executor's steps,
   * so parallel graph steps share their cached prefix), `hooks({...})`.
   */
  readonly middleware?: readonly Middleware[];
}

/**
 * The executor: a `ReActAgent` that runs the first step of `Plan`, its input built from
 * `{ userInput, plan, executedSteps, step }` (not from the session's history). Its events are
 * tagged `step` with the step and its number; the last one (tagged `step-result`) stores
 * `ExecutedStep`. It carries no `actions.final`: a step's answer is not the run's answer. With an
 * empty plan it does nothing, and on resume after its step finished it does nothing again.
 */
export class Executor implements Agent {
  readonly name: string;
  readonly description: string;
  /** The state keys it reads and writes (`SessionKeys` unless its plan–execute agent has its own name). */
  readonly keys: PlanExecuteKeys;
  private readonly react: ReActAgent;
  private readonly contextPolicy: ResolvedContextPolicy;
  /** The input of the step in progress, built once per run and read by the ReAct loop. */
  private readonly inputs = new WeakMap<InvocationContext, ExecutorInput>();

  constructor(
    readonly options: ExecutorOptions,
    keys: PlanExecuteKeys = SessionKeys,
  ) {
    this.keys = keys;
    this.name = options.name ?? 'executor';
    assertAgentName(this.name);
    assertModel(options.model, `Executor "${this.name}"`);
    this.description = options.description ?? 'Carries out one step of the plan with its tools.';
    this.contextPolicy = resolveContextPolicy(options.contextPolicy, 'full', `Executor "${this.name}"`);
    // Same name as this agent: the ReAct loop runs in this agent's context, on its path.
    this.react = stepReActAgent(options, this.name, (ctx) => this.input(ctx));
  }

  async *run(ctx: InvocationContext): AsyncGenerator<AgentEvent, void, undefined> {
    if (ctx.ownEvents().some((e) => tagOf(e) === 'step-result')) return;
    const state = readExecutionState(ctx.state, this.keys);
    const { executedSteps } = state;
    const steps = stepsOf(state.plan);
    if (!steps.length) return; // an empty plan: nothing to run; the replanner answers or plans again
    const step = steps[0];
    const context = linearExecutorContext(executedSteps, this.contextPolicy, step);
    const meta = { step, stepNumber: executedSteps.length + 1, contextPolicy: context.info };
    // Usage and observers report the step by its number in the plan's run.
    const stepCtx = ctx.withLabel({ id: String(meta.stepNumber), text: stepText(step) });
    this.inputs.set(stepCtx, { ...state, step, context });
    try {
      for await (const event of this.react.run(stepCtx)) {
        const final = event.actions?.final;
        if (!final) {
          yield tagged(event, 'step', meta);
          continue;
        }
        const executed: ExecutedStep = { step, ...stepOutcome(final, event, ctx.ownEvents()) };
        yield tagged(asStepResult(event, { [this.keys.ExecutedStep]: executed }), 'step-result', meta);
        return;
      }
    } catch (error) {
      // A step that cannot finish is a failed step the replanner can route around (as in graph
      // mode), not the end of the run; infrastructure errors (model down, abort) still end it.
      if (!(error instanceof MaxIterationsError)) throw error;
      const toolErrors = toolErrorsOf(ctx.ownEvents());
      const executed: ExecutedStep = {
        step,
        result: '(no result: the step did not finish)',
        error: `${error.name}: ${error.message}`,
        ...(toolErrors.length ? { toolErrors } : {}),
      };
      yield tagged(ctx.event({ actions: { stateDelta: { [this.keys.ExecutedStep]: executed } } }), 'step-result', meta);
    }
  }

  /** This executor inside a plan–execute agent: its keys, and its name if none was given. @internal */
  inScope(scope: PartScope): Executor {
    return new Executor({ ...this.options, name: this.options.name ?? scope.names.executor }, scope.keys);
  }

  private async input(ctx: InvocationContext): Promise<readonly Message[]> {
    const input = this.inputs.get(ctx) as ExecutorInput;
    return this.options.buildInput ? this.options.buildInput(input) : formatExecutorPrompt(input, this.options.instruction);
  }
}

/** The ReAct loop that runs one step, built from the executor's options. */
export function stepReActAgent(
  options: Omit<ExecutorOptions, 'buildInput'>,
  name: string,
  inputMessages: (ctx: InvocationContext) => readonly Message[] | Promise<readonly Message[]>,
): ReActAgent {
  return new ReActAgent({
    name,
    model: options.model,
    ...(options.tools ? { tools: options.tools } : {}),
    ...(options.maxIterations !== undefined ? { maxIterations: options.maxIterations } : {}),
    ...(options.outputSchema ? { outputSchema: options.outputSchema } : {}),
    ...(options.toolConcurrency !== undefined ? { toolConcurrency: options.toolConcurrency } : {}),
    ...(options.settings ? { settings: options.settings } : {}),
    ...(options.middleware ? { middleware: options.middleware } : {}),
    inputMessages,
  });
}

/** Creates an executor (see `Executor`). */
export function createExecutor(options: ExecutorOptions): Executor {
  return new Executor(options);
}
