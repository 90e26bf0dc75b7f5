import type { AgentEvent, EventDraft, Interrupt } from '../events/agent-event.js';
import { RunInterruptedSignal } from './run-interrupted.js';
import { WORK_LABEL_META, type WorkLabel } from '../models/work-label.js';
import type { SessionKey } from '../sessions/session.js';
import type { RunBudget } from './run-limits.js';
import type { RunObservation } from '../observe/run-observation.js';
import type { SessionStore } from '../sessions/session-store.js';
import type { RunFence } from '../sessions/run-lease.js';
import { type ModelCallMemo, stampModelResponse } from './response-record.js';
import { newRequestChain } from '../models/request-fingerprint.js';
import type { CompensationReport } from '../errors/compensation-error.js';
import { ConfigurationError } from '../errors/replan-error.js';
import { isInnerCallEvent } from '../events/inner-call.js';

/**
 * The part of the `Agent` contract a context needs: who runs (stamped on events, told to observers)
 * and how to run it. Every `Agent` is one; declared here so that the context does not import the
 * contract that imports it.
 */
export interface RunnableAgent {
  readonly name: string;
  /** How observers label this agent's runs: `plan` for planner and replanner turns (default `invoke_agent`). */
  readonly operation?: 'invoke_agent' | 'plan';
  run(ctx: InvocationContext): AsyncGenerator<AgentEvent, void, undefined>;
}

/** The session as a run sees it while it runs: events and state grow as events are stored. */
export interface LiveSession extends SessionKey {
  readonly events: AgentEvent[];
  /** Merged state, `temp:` keys of this invocation included. */
  readonly state: Record<string, unknown>;
  version: number;
}

/** What every agent of one invocation shares. Built by the `Runner`. */
export interface InvocationServices {
  readonly invocationId: string;
  readonly session: LiveSession;
  readonly signal: AbortSignal;
  /**
   * Marks the run's lease lost when it ran out by this process's clock unrenewed (`signal` then
   * fires). Asked right before a tool starts; absent when the run holds no lease.
   */
  readonly checkLease?: () => void;
  /** True when the caller asked for streaming: agents stream model output as partial events. */
  readonly streaming: boolean;
  readonly budget: RunBudget;
  /** The runner's observers for this run; absent when none is registered (then nothing is reported). */
  readonly observation?: RunObservation;
  /** Answers to interrupts, by interrupt id, from this invocation's stored `resumeValues`. */
  readonly resumeValues: ReadonlyMap<string, unknown>;
  /** Ids of interrupts already stored in this invocation. */
  readonly interruptIds: ReadonlySet<string>;
  newId(): string;
  /** The store the run writes to (child sessions of `agentTool` live in it too). */
  readonly store?: SessionStore;
  /**
   * Sends an event to the run's caller without storing it in this session: events of a child
   * session (`agentTool`), already stored there, tagged with their nested path.
   */
  readonly forward?: (event: AgentEvent) => void;
  /**
   * The run's lease on its session, when the store has leases: child sessions (`agentTool`) take
   * a lease of their own as the same owner, bound to this one. @internal
   */
  readonly fence?: RunFence;
  /** Runs compensations for `ctx.compensate` (the runner's, over its agent tree's tools). @internal */
  readonly compensate?: (
    ctx: InvocationContext,
    inScope: (event: AgentEvent) => boolean,
  ) => AsyncGenerator<AgentEvent, CompensationReport, undefined>;
  /**
   * Stores an event at once, beside the agent's yielded ones (in order with them), and resolves
   * once it is durable: how a running tool records events of its own (`toolCallRun`). Set by the
   * runner; absent in contexts built by hand.
   */
  readonly appendNow?: (event: AgentEvent) => Promise<void>;
}

/** What an agent asks with `ctx.interrupt`. */
export interface AgentInterruptRequest {
  /** Stable across runs of this invocation (a resume answers it by id): e.g. derived from a stored event's id. */
  readonly id: string;
  /** What kind of question it is (e.g. `'plan-review'`); UIs and `checkResumeValue` tell questions apart by it. */
  readonly reason: string;
  readonly payload: unknown;
  /** Labels for the stored interrupt event. */
  readonly meta?: Readonly<Record<string, unknown>>;
}

export interface ChildOptions {
  /** The last segment of the child's `path` (default: the child agent's name), e.g. a graph step's id. */
  readonly pathSegment?: string;
  /** A branch name for this child (`ParallelAgent`): its events are hidden from sibling branches. */
  readonly branch?: string;
  /** Where the child's own history starts in `events` (default: now). */
  readonly scopeStart?: number;
}

/**
 * One agent's view of a running invocation: who it is (`path`, `branch`), where its own history
 * starts (`scopeStart`), and the shared services. Created by the runner and by parent agents.
 */
export class InvocationContext {
  constructor(
    readonly services: InvocationServices,
    readonly agent: RunnableAgent,
    readonly path: string,
    readonly branch: string | undefined,
    /** Index in `events` where this agent's current run began; earlier events are history. */
    readonly scopeStart: number,
    /** The label of the work this agent does (`withLabel`), inherited by sub-agents; core does not read it. */
    readonly label?: WorkLabel,
  ) {}

  private memo: ModelCallMemo | undefined;

  /** This caller's model calls: its last request and its unstored response (see `ModelCallMemo`). @internal */
  get modelCalls(): ModelCallMemo {
    if (!this.memo) this.memo = { chain: newRequestChain(), pending: undefined };
    return this.memo;
  }

  get invocationId(): string {
    return this.services.invocationId;
  }
  get session(): LiveSession {
    return this.services.session;
  }
  get events(): readonly AgentEvent[] {
    return this.services.session.events;
  }
  get state(): Readonly<Record<string, unknown>> {
    return this.services.session.state;
  }
  get signal(): AbortSignal {
    return this.services.signal;
  }
  get streaming(): boolean {
    return this.services.streaming;
  }

  /**
   * A context for a sub-agent: its path is this path plus `pathSegment` (default: the agent's
   * name), its branch nests under this one when `branch` is given, and its own history starts now
   * (or at `scopeStart`; pass `ctx.scopeStart` for a child that must find what it stored before a
   * resume). The way parent agents make their children's contexts.
   */
  child(agent: RunnableAgent, options: ChildOptions = {}): InvocationContext {
    const branch = options.branch === undefined ? this.branch : this.branch ? `${this.branch}.${options.branch}` : options.branch;
    return new InvocationContext(
      this.services,
      agent,
      `${this.path}/${options.pathSegment ?? agent.name}`,
      branch,
      options.scopeStart ?? this.services.session.events.length,
      this.label,
    );
  }

  /** The same context with another abort signal (e.g. to stop one group of sub-agents). */
  withSignal(signal: AbortSignal): InvocationContext {
    return new InvocationContext({ ...this.services, signal }, this.agent, this.path, this.branch, this.scopeStart, this.label);
  }

  /**
   * The same context doing work labelled `label` (plan–execute: a plan step): its model calls carry
   * it to the model, observers report it, and `RunResult.breakdown.byLabel` sums usage by its `id`.
   */
  withLabel(label: WorkLabel): InvocationContext {
    return new InvocationContext(this.services, this.agent, this.path, this.branch, this.scopeStart, label);
  }

  /**
   * Undoes the finished calls of compensable tools (`tool({ compensate })`) among this invocation's
   * events that `inScope` keeps, in reverse order of completion: yields each compensation's call and
   * result events (yield them on: the runner stores each before the next runs) and returns the
   * report. Each compensation is a tool call `<callId>:compensate` done exactly once: one whose result
   * is stored is not run again, so calling this again after a crash finishes what was left. A call
   * whose result was never stored is skipped (in the report); a compensation that throws stores its
   * error and throws `CompensationError`. Plan–execute uses it for the steps a replan drops.
   */
  compensate(inScope: (event: AgentEvent) => boolean): AsyncGenerator<AgentEvent, CompensationReport, undefined> {
    const run = this.services.compensate;
    if (!run) throw new ConfigurationError('ctx.compensate needs a run started by a Runner.');
    return run(this, inScope);
  }

  /** Stamps id, invocation, author, path, branch and time on an event this agent emits. */
  event(draft: EventDraft): AgentEvent {
    // Built field by field (not spread): this runs for every event and a fixed shape keeps it cheap.
    const event: { -readonly [K in keyof AgentEvent]: AgentEvent[K] } = {
      id: this.services.newId(),
      invocationId: this.services.invocationId,
      author: draft.author ?? this.agent.name,
      path: this.path,
      timestamp: Date.now(),
    };
    if (this.branch !== undefined) event.branch = this.branch;
    if (draft.message !== undefined) event.message = draft.message;
    if (draft.usage !== undefined) event.usage = draft.usage;
    if (draft.partial !== undefined) event.partial = draft.partial;
    if (draft.error !== undefined) event.error = draft.error;
    if (draft.actions !== undefined) event.actions = draft.actions;
    if (draft.meta !== undefined) event.meta = draft.meta;
    if (draft.partial && this.label !== undefined) event.meta = { ...draft.meta, [WORK_LABEL_META]: this.label.id };
    if (this.memo?.pending !== undefined && (draft.message !== undefined || draft.usage !== undefined))
      stampModelResponse(this.memo, event);
    return event;
  }

  /**
   * Stops the run for a human (or another system), as `ToolContext.interrupt` does for a tool: use it
   * with `yield*` in an agent's `run` — `const answer = yield* ctx.interrupt<Answer>({ id, reason, payload })`.
   * When the run is resumed with a value for `id`, this returns it; else the interrupt is stored (once:
   * `id` must be the same on every run, e.g. derived from a stored event's id) and the run ends
   * `interrupted` (the agent's `checkResumeValue` may refuse an answer before it is stored).
   */
  *interrupt<T = unknown>(request: AgentInterruptRequest): Generator<AgentEvent, T, undefined> {
    const { resumeValues, interruptIds } = this.services;
    if (resumeValues.has(request.id)) return resumeValues.get(request.id) as T;
    const interrupt: Interrupt = { id: request.id, reason: request.reason, payload: request.payload, path: this.path };
    if (!interruptIds.has(request.id)) yield this.event({ actions: { interrupt }, ...(request.meta ? { meta: request.meta } : {}) });
    throw new RunInterruptedSignal([interrupt]);
  }

  /** True when an event of another branch must stay hidden from this agent. */
  isVisible(event: AgentEvent): boolean {
    const b = event.branch;
    if (!b || !this.branch || b === this.branch) return true;
    return this.branch.startsWith(`${b}.`);
  }

  /**
   * This agent's own stored events since its run began (resume reads them to pick up). The inner
   * calls a tool made (`meta.codeCall`, `@replan/code`) are the tool's, not the agent's turns: left out.
   */
  ownEvents(): AgentEvent[] {
    const out: AgentEvent[] = [];
    const events = this.services.session.events;
    for (let i = this.scopeStart; i < events.length; i++) {
      const e = events[i] as AgentEvent;
      if (e.path === this.path && e.branch === this.branch && !isInnerCallEvent(e)) out.push(e);
    }
    return out;
  }

  /** The latest cursor this agent stored in its current run, and where it is in `events`. */
  lastAgentState(): { state: Readonly<Record<string, unknown>>; index: number } | undefined {
    const events = this.services.session.events;
    for (let i = events.length - 1; i >= this.scopeStart; i--) {
      const e = events[i] as AgentEvent;
      if (e.path === this.path && e.branch === this.branch && e.actions?.agentState) return { state: e.actions.agentState, index: i };
    }
    return undefined;
  }
}
