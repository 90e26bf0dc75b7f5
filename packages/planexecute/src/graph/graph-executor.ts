import { ConfigurationError, type Agent, type AgentEvent, type Message, type ReActAgent } from '@replan/core';
import { assertAgentName, quoteValue, runAgent, type InvocationContext } from '@replan/core/agent-kit';
import { applyContextPolicy, resolveContextPolicy, type ContextView, type ResolvedContextPolicy } from '../base/context-policy.js';
import { tagged } from '../base/event-tags.js';
import { assertModel } from '../base/assert-model.js';
import { stepReActAgent } from '../base/executor.js';
import type { ExecutorOptions } from '../base/executor-options.js';
import { executedGraphSteps, readExecutionState, SessionKeys, type ExecutedGraphStep, type PlanExecuteKeys } from '../base/session-keys.js';
import { asStepResult, stepOutcome } from '../base/step-outcome.js';
import { graphStepsOf, type GraphStep } from './graph-plan.js';
import { formatGraphStepPrompt, insertedResult, type GraphStepInput } from './graph-prompts.js';
import { scheduleGraph, type ScheduleOptions } from './graph-scheduler.js';
import { graphPlanProblems, InvalidPlanGraphError } from './graph-validation.js';
import { substituteReferences } from '../base/step-references.js';
import { mustAnswer } from '../budget/budget-answer.js';

/** The graph executor's options: the executor's, with the graph step input builder as `buildInput`. */
export interface GraphExecutorOptions extends Omit<ExecutorOptions, 'buildInput' | 'buildGraphInput'> {
  /** Most steps running at once (default 4). */
  readonly stepConcurrency?: number;
  /** Replaces a step's whole default input (system message included). */
  readonly buildInput?: (input: GraphStepInput) => readonly Message[] | Promise<readonly Message[]>;
}

/**
 * The graph executor (the graph mode's step runner, built from `createExecutor`'s options): runs every step of the graph `Plan` not yet in
 * `ExecutedSteps`, each as its own ReAct run on path `…/<name>/<id>` and its own branch, a step
 * starting as soon as its dependencies are done (at most `stepConcurrency` at once). Each step's
 * last event appends `{ id, step, result }` — or `{ id, step, error }` when its run ends in error —
 * to `ExecutedSteps`, so a resumed run re-runs only unfinished steps. After a failure no new step
 * starts; running ones finish; the replanner then runs.
 */
export class GraphExecutor implements Agent {
  readonly name: string;
  readonly description: string;
  readonly stepConcurrency: number;
  /** The state keys it reads and writes (`SessionKeys` unless its plan–execute agent has its own name). */
  readonly keys: PlanExecuteKeys;
  private readonly react: ReActAgent;
  private readonly contextPolicy: ResolvedContextPolicy;
  private readonly inputs = new WeakMap<InvocationContext, GraphStepInput>();

  constructor(
    readonly options: GraphExecutorOptions,
    keys: PlanExecuteKeys = SessionKeys,
  ) {
    this.keys = keys;
    this.name = options.name ?? 'executor';
    assertAgentName(this.name);
    assertModel(options.model, `Graph executor "${this.name}"`);
    this.description = options.description ?? 'Runs the steps of the plan graph, each as soon as its dependencies are done.';
    this.stepConcurrency = options.stepConcurrency ?? 4;
    if (!Number.isInteger(this.stepConcurrency) || this.stepConcurrency < 1)
      throw new ConfigurationError(
        `Graph executor "${this.name}": stepConcurrency must be a positive integer, got ${String(options.stepConcurrency)}.`,
      );
    this.contextPolicy = resolveContextPolicy(options.contextPolicy, 'referenced', `Graph executor "${this.name}"`);
    // One loop for every step: each step runs it in its own context, which keys its input.
    this.react = stepReActAgent(options, this.name, (ctx) => this.input(ctx));
  }

  /** A tool of the steps' ReAct loop (compensation finds the tools of stored calls with it). */
  toolNamed(name: string) {
    return this.react.toolNamed(name);
  }

  async *run(ctx: InvocationContext): AsyncGenerator<AgentEvent, void, undefined> {
    const steps = graphStepsOf(ctx.state[this.keys.Plan]);
    const ran = new Map(executedGraphSteps(ctx.state, this.keys).map((s) => [s.id, s]));
    // This graph already had a failure (e.g. resumed after it was stored): the replanner decides.
    if (steps.some((s) => ran.get(s.id)?.error !== undefined)) return;
    const pending = steps.filter((s) => !ran.has(s.id));
    if (!pending.length) return;
    const succeeded = new Set([...ran.values()].filter((s) => s.error === undefined).map((s) => s.id));
    const problems = graphPlanProblems(pending, { succeeded, failed: new Set() });
    if (problems.length) throw new InvalidPlanGraphError(this.name, problems);

    yield* this.runSteps(ctx, { pending, succeeded });
  }

  /**
   * Runs steps on the scheduler with this executor's step agents and events (each step under
   * `ctx.path`). The streaming planner passes a `feed` that adds steps (and events to store) while
   * its plan streams. Not for direct use: `run` does it for the stored plan.
   * @internal
   */
  async *runSteps(
    ctx: InvocationContext,
    graph: Pick<ScheduleOptions, 'pending' | 'succeeded' | 'failed' | 'feed'>,
  ): AsyncGenerator<AgentEvent, void, undefined> {
    const contexts = new Map<string, InvocationContext>(); // each step's own context, by id
    const deliveries = scheduleGraph({
      ...graph,
      concurrency: this.stepConcurrency,
      signal: ctx.signal,
      underReserve: () => mustAnswer(ctx.services.budget),
      runStep: (step, signal) => this.runStep(ctx, step, signal, contexts),
    });
    for await (const d of deliveries) {
      if (d.kind === 'feed') {
        yield d.event;
        continue;
      }
      const stepCtx = contexts.get(d.step.id) as InvocationContext;
      const input = this.inputs.get(stepCtx) as GraphStepInput;
      const tags = { stepId: d.step.id, step: d.step.task, contextPolicy: input.context.info };
      if (d.kind === 'failed') {
        const error = d.error instanceof Error ? `${d.error.name}: ${d.error.message}` : String(d.error);
        const executed: ExecutedGraphStep = { id: d.step.id, step: d.step.task, dependsOn: d.step.dependsOn, error };
        yield tagged(
          stepCtx.event({
            actions: { stateDelta: { [this.keys.ExecutedStep]: executed }, stateAppend: { [this.keys.ExecutedSteps]: [executed] } },
          }),
          'step-result',
          tags,
        );
        continue;
      }
      const final = d.event.actions?.final;
      if (!final) {
        yield tagged(d.event, 'step', tags);
        continue;
      }
      const executed: ExecutedGraphStep = {
        id: d.step.id,
        step: d.step.task,
        dependsOn: d.step.dependsOn,
        ...stepOutcome(final, d.event, stepCtx.ownEvents()),
      };
      yield tagged(
        asStepResult(d.event, { [this.keys.ExecutedStep]: executed }, { [this.keys.ExecutedSteps]: [executed] }),
        'step-result',
        tags,
      );
    }
  }

  private runStep(
    parent: InvocationContext,
    step: GraphStep,
    signal: AbortSignal,
    contexts: Map<string, InvocationContext>,
  ): AsyncIterable<AgentEvent> {
    // Same scope start as the executor: a resumed step finds its stored tool calls and results.
    const ctx = parent
      .withSignal(signal)
      .child(this.react, { pathSegment: step.id, branch: `${this.name}_${step.id}`, scopeStart: parent.scopeStart })
      .withLabel({ id: step.id, text: step.task });
    contexts.set(step.id, ctx);
    this.inputs.set(ctx, this.stepInput(parent, step));
    return runAgent(ctx);
  }

  private stepInput(parent: InvocationContext, step: GraphStep): GraphStepInput {
    const state = readExecutionState(parent.state, this.keys);
    const done = executedGraphSteps(parent.state, this.keys).filter((s) => s.error === undefined);
    // Results go in quoted (data, not instructions); the task around them cannot start a line.
    const results = new Map(done.filter((s) => step.dependsOn.includes(s.id)).map((s) => [s.id, insertedResult(s.result ?? '')]));
    const { text, used } = substituteReferences(quoteValue(step.task), results);
    // A result written into the task is not listed again.
    const items = done.filter((s) => !used.has(s.id)).map((s) => ({ ...s, label: `[${s.id}]` }));
    const context: ContextView = applyContextPolicy(items, this.contextPolicy, (i) => step.dependsOn.includes(items[i]?.id ?? ''));
    return { userInput: state.userInput, step, task: text, inserted: [...used], context };
  }

  private async input(ctx: InvocationContext): Promise<readonly Message[]> {
    const input = this.inputs.get(ctx) as GraphStepInput;
    return this.options.buildInput ? this.options.buildInput(input) : formatGraphStepPrompt(input, this.options.instruction);
  }
}
