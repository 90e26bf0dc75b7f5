import { MaxIterationsError, ReActAgent, type Agent, type AgentEvent, type InvocationContext, type Message } from '@replan/core';
import { assertAgentName } from '@replan/core/agent-kit';
import { tagged, tagOf } from './event-tags.js';
import { stepsOf, stepText } from './plan-schema.js';
import { assertModel } from './assert-model.js';
import { formatExecutorPrompt } from './prompts.js';
import { resolveContextPolicy, type ResolvedContextPolicy } from './context-policy.js';
import { linearExecutorContext } from './linear-context.js';
import { asStepResult, stepOutcome, toolErrorsOf } from './step-outcome.js';
import { readExecutionState, SessionKeys, type ExecutedStep, type ExecutorInput, type PlanExecuteKeys } from './session-keys.js';
import type { ExecutorOptions } from './executor-options.js';
import type { PartBinding } from './part-scope.js';
import { isReserveStop, mustAnswer } from '../budget/budget-answer.js';

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

  /** A tool of the step's ReAct loop (compensation finds the tools of stored calls with it). */
  toolNamed(name: string) {
    return this.react.toolNamed(name);
  }

  async *run(ctx: InvocationContext): AsyncGenerator<AgentEvent, void, undefined> {
    if (ctx.ownEvents().some((e) => tagOf(e) === 'step-result')) return;
    const state = readExecutionState(ctx.state, this.keys);
    const { executedSteps } = state;
    const steps = stepsOf(state.plan);
    if (!steps.length) return; // an empty plan: nothing to run; the replanner answers or plans again
    if (mustAnswer(ctx.services.budget)) return; // under the reserve (onExhausted: 'answer'): no step starts, the replanner answers
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
      // Refused for the answer's reserve: the step stops unfinished (not run); the replanner answers.
      if (isReserveStop(error)) return;
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

  /**
   * This executor inside a plan–execute agent: its mode's step runner (this one in linear mode),
   * with the agent's keys and `stepConcurrency`, and its name if none was given. @internal
   */
  bind(binding: PartBinding): Agent {
    const name = this.options.name ?? binding.names.executor;
    const stepConcurrency = binding.stepConcurrency !== undefined ? { stepConcurrency: binding.stepConcurrency } : {};
    return binding.mode.executor({ ...this.options, name, ...stepConcurrency }, binding.keys);
  }

  private async input(ctx: InvocationContext): Promise<readonly Message[]> {
    const input = this.inputs.get(ctx) as ExecutorInput;
    return this.options.buildInput ? this.options.buildInput(input) : formatExecutorPrompt(input, this.options.instruction);
  }
}

/** The ReAct loop that runs one step, built from the executor's options. */
export function stepReActAgent(
  options: Omit<ExecutorOptions, 'buildInput' | 'buildGraphInput'>,
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
