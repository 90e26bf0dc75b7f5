import {
  assertAgentName,
  messageText,
  ReActAgent,
  stringifyToolOutput,
  toolResultsOf,
  type Agent,
  type AgentEvent,
  type ChatModel,
  type InvocationContext,
  type Message,
  type ModelSettings,
  type ReActHooks,
  type Tool,
} from '@replan/core';
import type { z } from 'zod';
import { tagged, tagOf } from './event-kind.js';
import { stepsOf } from './plan-schema.js';
import { assertModel } from './assert-model.js';
import { formatExecutorPrompt } from './prompts.js';
import { readExecutionState, SessionKeys, type ExecutedStep, type ExecutorInput, type StepToolError } from './session-keys.js';

export interface ExecutorOptions {
  readonly model: ChatModel;
  readonly tools?: readonly Tool[];
  /** Replaces the system text of `ExecutorPrompt`. */
  readonly instruction?: string;
  /** Replaces the whole default input (system message included), built from the step's context. */
  readonly buildInput?: (input: ExecutorInput) => readonly Message[] | Promise<readonly Message[]>;
  /** Most model calls for one step (default 10); reaching it ends the run `max_iterations`. */
  readonly maxIterations?: number;
  /** A structured step result (zod), stored in `ExecutedStep.structured`. */
  readonly outputSchema?: z.ZodType;
  readonly toolConcurrency?: number;
  readonly hooks?: ReActHooks;
  readonly settings?: ModelSettings;
  readonly name?: string;
  readonly description?: string;
}

/** Tool failures among a step's events. */
function toolErrorsOf(events: readonly AgentEvent[]): StepToolError[] {
  const errors: StepToolError[] = [];
  for (const event of events)
    for (const r of toolResultsOf(event.message)) if (r.isError) errors.push({ tool: r.name, error: stringifyToolOutput(r.output) });
  return errors;
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
  private readonly react: ReActAgent;

  constructor(readonly options: ExecutorOptions) {
    this.name = options.name ?? 'executor';
    assertAgentName(this.name);
    assertModel(options.model, `Executor "${this.name}"`);
    this.description = options.description ?? 'Carries out one step of the plan with its tools.';
    // Same name as this agent: the ReAct loop runs in this agent's context, on its path.
    this.react = new ReActAgent({
      name: this.name,
      model: options.model,
      ...(options.tools ? { tools: options.tools } : {}),
      ...(options.maxIterations !== undefined ? { maxIterations: options.maxIterations } : {}),
      ...(options.outputSchema ? { outputSchema: options.outputSchema } : {}),
      ...(options.toolConcurrency !== undefined ? { toolConcurrency: options.toolConcurrency } : {}),
      ...(options.hooks ? { hooks: options.hooks } : {}),
      ...(options.settings ? { settings: options.settings } : {}),
      inputMessages: (ctx) => this.input(ctx),
    });
  }

  async *run(ctx: InvocationContext): AsyncGenerator<AgentEvent, void, undefined> {
    if (ctx.ownEvents().some((e) => tagOf(e) === 'step-result')) return;
    const { plan, executedSteps } = readExecutionState(ctx.state);
    const steps = stepsOf(plan);
    if (!steps.length) return; // an empty plan: nothing to run; the replanner answers or plans again
    const meta = { step: steps[0], stepNumber: executedSteps.length + 1 };
    for await (const event of this.react.run(ctx)) {
      const final = event.actions?.final;
      if (!final) {
        yield tagged(event, 'step', meta);
        continue;
      }
      const toolErrors = toolErrorsOf(ctx.ownEvents());
      const executed: ExecutedStep = {
        step: steps[0],
        result: final.text || messageText(event.message),
        ...(final.structured !== undefined ? { structured: final.structured } : {}),
        ...(toolErrors.length ? { toolErrors } : {}),
      };
      const { final: _answer, ...actions } = event.actions ?? {};
      yield tagged(
        { ...event, actions: { ...actions, stateDelta: { ...actions.stateDelta, [SessionKeys.ExecutedStep]: executed } } },
        'step-result',
        meta,
      );
      return;
    }
  }

  private async input(ctx: InvocationContext): Promise<readonly Message[]> {
    const state = readExecutionState(ctx.state);
    const input: ExecutorInput = { ...state, step: stepsOf(state.plan)[0] };
    return this.options.buildInput ? this.options.buildInput(input) : formatExecutorPrompt(input, this.options.instruction);
  }
}

/** Creates an executor (see `Executor`). */
export function createExecutor(options: ExecutorOptions): Executor {
  return new Executor(options);
}
