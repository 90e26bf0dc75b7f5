import { ConfigurationError, type Agent, type AgentEvent, type ChatModel, type Message, type ModelResponse } from '@replan/core';
import { streamModelCall, type InvocationContext } from '@replan/core/agent-kit';
import type { Parsed } from '../base/decision-call.js';
import type { PlanDecider, PlanDecision } from '../base/plan-decider.js';
import { conversationOf } from '../base/user-input.js';
import { tagged, tagOf } from '../base/event-tags.js';
import { executedGraphSteps } from '../base/session-keys.js';
import type { GraphExecutor } from './graph-executor.js';
import { graphStepsOf, type GraphStep } from './graph-plan.js';
import type { ScheduleFeedItem } from './graph-scheduler.js';
import { StepAcceptance } from './step-acceptance.js';
import { StepStreamParser } from './step-stream-parser.js';

/** A planner from `createPlanner` bound to the graph mode: a `PlanDecider` that says whether its plan comes as a `plan` call. */
export interface StreamingPlannerSource extends PlanDecider {
  /** True when the plan comes as JSON text, not a `plan` call (it cannot be streamed by step). */
  readonly textMode: boolean;
  /** The model whose `plan` call is streamed. */
  readonly model: ChatModel;
}

export interface StreamingGraphPlannerOptions {
  /** A planner from `createPlanner` with tool-call output, bound to the graph mode. Its model, prompt and repairs are used. */
  readonly planner: StreamingPlannerSource;
  /** The graph executor whose steps it starts (the plan-execute agent passes its own). */
  readonly executor: GraphExecutor;
}

/** One planner run's stream state: what was accepted, and what waits to be handed to the scheduler. */
interface RunState {
  readonly acceptance: StepAcceptance;
  readonly toStart: GraphStep[];
  readonly userInput: readonly Message[];
}

/**
 * The streaming planner (`createPlanExecuteAgent({ mode: 'graph', streamingPlan: true })`): streams
 * the planner's `plan` call and starts each step as soon as its object is complete in the streamed
 * arguments and its dependencies are done, while the rest of the plan is still being written. It
 * then runs the graph's first pass itself (the loop's graph executor finds those steps done).
 *
 * Events, in log order: a `plan-step` event per step accepted mid-stream, stored before the step
 * starts (the first also stores `UserInput` and resets `ExecutedSteps`); the steps' events, on path
 * `…/<planner>/<executor>/<id>`, each step's result appended to `ExecutedSteps` as it finishes; the
 * `plan` event once the stream ends and the whole plan validates as a DAG.
 *
 * A complete plan that is invalid, or changes a step that already started: with no step started it
 * is repaired like any plan; otherwise the started steps are kept — `Plan` holds only them, the
 * `plan` event's `meta.planProblem` says what was wrong — and the replanner plans the rest.
 *
 * Resume: with the plan stored, only the plan's unfinished steps run (a step picks up from its own
 * stored events). Without it, the steps accepted before the stop are kept (finished ones are not
 * re-run, unfinished ones pick up at once) and the model is called again; the new plan must keep
 * them unchanged (else it is treated as invalid after early starts).
 */
export class StreamingGraphPlanner implements Agent {
  readonly name: string;
  /** Observers report its turns as planning (`plan {agent}` spans). */
  readonly operation = 'plan' as const;
  readonly description: string;
  readonly planner: StreamingPlannerSource;
  readonly executor: GraphExecutor;

  constructor(options: StreamingGraphPlannerOptions) {
    const { planner, executor } = options;
    if (planner.textMode)
      throw new ConfigurationError(
        `Streaming planner: the planner "${planner.name}" uses structuredOutput: 'response-format'; a streamed plan is read from the "plan" tool call, so drop that option.`,
      );
    this.planner = planner;
    this.executor = executor;
    this.name = planner.name;
    this.description = planner.description;
  }

  async *run(ctx: InvocationContext): AsyncGenerator<AgentEvent, void, undefined> {
    // The steps run on the executor's own agent, under this planner's path.
    const stepsCtx = ctx.child(this.executor, { scopeStart: ctx.scopeStart });
    const own = ctx.ownEvents();
    if (own.some((e) => tagOf(e) === 'plan')) {
      yield* this.executor.run(stepsCtx); // the stored plan's unfinished steps
      return;
    }
    const earlier = own.filter((e) => tagOf(e) === 'plan-step').map((e) => e.meta?.planStep as GraphStep);
    // `ExecutedSteps` belongs to this plan only once a first `plan-step` event reset it.
    const ran = earlier.length ? executedGraphSteps(ctx.state, this.planner.keys) : [];
    const run: RunState = { acceptance: new StepAcceptance(earlier), toStart: [], userInput: [] };
    yield* this.executor.runSteps(stepsCtx, {
      pending: earlier.filter((s) => !ran.some((r) => r.id === s.id)),
      succeeded: new Set(ran.filter((s) => s.error === undefined).map((s) => s.id)),
      failed: new Set(ran.filter((s) => s.error !== undefined).map((s) => s.id)),
      feed: (signal) => this.feed(ctx, run, signal),
    });
  }

  /** The planner's decision as a feed: its events to store, and the steps to start. */
  private async *feed(ctx: InvocationContext, run: RunState, signal: AbortSignal): AsyncGenerator<ScheduleFeedItem, void, undefined> {
    const userInput = conversationOf(ctx);
    const state: RunState = { ...run, userInput };
    const decision = this.planner.decide(ctx, {
      call: (req) => this.streamAttempt(ctx, req, state, signal),
      parse: (_m, own) => this.streamedPlan(own, state.acceptance),
    });
    let next = await decision.next();
    for (; !next.done; next = await decision.next()) {
      yield { kind: 'event', event: next.value };
      if (state.toStart.length) yield { kind: 'steps', steps: state.toStart.splice(0) };
    }
    const { response } = next.value;
    const value = next.value.decision as Extract<PlanDecision, { kind: 'plan' }>;
    const { keys } = this.planner;
    const reset = state.acceptance.size === 0 ? { [keys.UserInput]: userInput, [keys.ExecutedSteps]: [] } : {};
    const event = ctx.event({
      message: response.message,
      ...(response.usage ? { usage: response.usage } : {}),
      actions: { stateDelta: { ...reset, [keys.Plan]: value.plan } },
    });
    yield { kind: 'event', event: tagged(event, 'plan', { streamedPlan: true, ...(value.problem ? { planProblem: value.problem } : {}) }) };
    const rest = graphStepsOf(value.plan).filter((s) => !state.acceptance.isAccepted(s));
    if (rest.length) yield { kind: 'steps', steps: rest };
  }

  /** One streamed model answer: a `plan-step` event for each step accepted as its object completes. */
  private async *streamAttempt(
    ctx: InvocationContext,
    request: Parameters<typeof streamModelCall>[2],
    state: RunState,
    signal: AbortSignal,
  ): AsyncGenerator<AgentEvent, ModelResponse, undefined> {
    state.acceptance.newAttempt();
    const parser = new StepStreamParser();
    let planIndex: number | undefined;
    const parts = streamModelCall(ctx, this.planner.model, request, signal);
    let next = await parts.next();
    for (; !next.done; next = await parts.next()) {
      const part = next.value;
      if (part.type === 'tool-call-delta') {
        if (planIndex === undefined && part.name === 'plan') planIndex = part.index;
        if (part.index !== planIndex) continue;
        for (const value of parser.push(part.argsDelta)) {
          const accepted = state.acceptance.offer(value);
          const before = state.acceptance.size - accepted.length;
          for (const [i, step] of accepted.entries()) {
            state.toStart.push(step);
            yield this.planStepEvent(ctx, step, before + i === 0 ? state.userInput : undefined);
          }
        }
      } else if (ctx.streaming && (part.type === 'text-delta' || part.type === 'reasoning-delta') && part.delta) {
        const block =
          part.type === 'text-delta' ? { type: 'text' as const, text: part.delta } : { type: 'reasoning' as const, reasoning: part.delta };
        yield tagged(ctx.event({ partial: true, message: { role: 'assistant', content: [block] } }), 'planning');
      }
    }
    return next.value;
  }

  /** A step accepted mid-stream, stored before it starts; the first one also starts this plan's state. */
  private planStepEvent(ctx: InvocationContext, step: GraphStep, firstOf: readonly Message[] | undefined): AgentEvent {
    const { keys } = this.planner;
    const actions = firstOf ? { actions: { stateDelta: { [keys.UserInput]: firstOf, [keys.ExecutedSteps]: [] } } } : {};
    return tagged(ctx.event(actions), 'plan-step', { stepId: step.id, planStep: step });
  }

  /** The complete answer: the plan if it is valid and keeps every started step, else the fallback. */
  private streamedPlan(parsed: Parsed<PlanDecision>, acceptance: StepAcceptance): Parsed<PlanDecision> {
    const plan = parsed.ok && parsed.value.kind === 'plan' ? parsed.value.plan : undefined;
    const problem = parsed.ok ? acceptance.keptProblem(graphStepsOf(plan)) : parsed.problem;
    if (parsed.ok && problem === undefined) return parsed;
    const reason = problem ?? 'the plan is invalid';
    if (acceptance.size === 0) return { ok: false, problem: reason };
    return { ok: true, value: { kind: 'plan', plan: { steps: acceptance.steps() }, problem: reason } };
  }
}
