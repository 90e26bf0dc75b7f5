import type { AgentEvent, EventDraft } from '../events/agent-event.js';
import type { InvocationContext } from '../invocation/invocation-context.js';
import type { ToolCallBlock } from '../messages/content-block.js';
import type { ChatModel } from '../models/chat-model.js';
import { DeltaState } from '../sessions/delta-state.js';
import type { StateAccess } from '../tools/tool-context.js';
import type { MiddlewareContexts } from './compose.js';
import type { Middleware, MiddlewareContext, ModelCallNext, ToolCallContext } from './middleware.js';

/**
 * The middleware side of one run of a `ReActAgent`: the state writes middleware make (stored
 * with the agent's next event), the events they record, and one context per middleware (so a
 * recorded event carries its middleware's name). Built by the loop only when the agent has middleware.
 */
export class MiddlewareRun implements MiddlewareContexts {
  readonly state: DeltaState;
  iteration = 0;
  /** Where recorded events go while a model or tool call runs (the loop yields them in order). */
  sink: ((event: AgentEvent) => void) | undefined;
  /** This run's model-call onion, built at its first call. */
  modelCall: ModelCallNext | undefined;
  /** Hands an event to the current sink (the model's partial events while it streams). */
  readonly emit = (event: AgentEvent): void => this.sink?.(event);
  /** Recorded while no call ran: the loop yields them before its next step. */
  readonly waiting: AgentEvent[] = [];
  private readonly recordedNow: AgentEvent[] = [];
  private readonly views = new Map<Middleware, MiddlewareContext>();

  constructor(
    readonly invocation: InvocationContext,
    readonly model: ChatModel,
    /** This agent's events stored before this run resumed (middleware read theirs back). */
    private readonly own: readonly AgentEvent[],
  ) {
    this.state = new DeltaState(invocation.state);
  }

  contextFor(middleware: Middleware): MiddlewareContext {
    let view = this.views.get(middleware);
    if (!view) {
      view = new MiddlewareView(this, middleware.name);
      this.views.set(middleware, view);
    }
    return view;
  }

  toolContextFor(middleware: Middleware, call: ToolCallBlock, args: unknown, state: StateAccess): ToolCallContext {
    return new ToolCallView(this, middleware.name, call, args, state);
  }

  record(name: string, draft: EventDraft): AgentEvent {
    const event = this.invocation.event({ ...draft, meta: { ...draft.meta, middleware: name } });
    this.recordedNow.push(event);
    if (this.sink) this.sink(event);
    else this.waiting.push(event);
    return event;
  }

  recorded(name: string): readonly AgentEvent[] {
    const out: AgentEvent[] = [];
    for (const e of this.own) if (e.meta?.middleware === name) out.push(e);
    for (const e of this.recordedNow) if (e.meta?.middleware === name) out.push(e);
    return out;
  }
}

class MiddlewareView implements MiddlewareContext {
  constructor(
    protected readonly run: MiddlewareRun,
    private readonly name: string,
  ) {}
  get agentName(): string {
    return this.run.invocation.agent.name;
  }
  get path(): string {
    return this.run.invocation.path;
  }
  get invocationId(): string {
    return this.run.invocation.invocationId;
  }
  get sessionId(): string {
    return this.run.invocation.session.id;
  }
  get userId(): string {
    return this.run.invocation.session.userId;
  }
  get iteration(): number {
    return this.run.iteration;
  }
  get state(): StateAccess {
    return this.run.state;
  }
  get signal(): AbortSignal {
    return this.run.invocation.signal;
  }
  get model(): ChatModel {
    return this.run.model;
  }
  get invocation(): InvocationContext {
    return this.run.invocation;
  }
  record(draft: EventDraft): AgentEvent {
    return this.run.record(this.name, draft);
  }
  recorded(name: string): readonly AgentEvent[] {
    return this.run.recorded(name);
  }
}

class ToolCallView extends MiddlewareView implements ToolCallContext {
  constructor(
    run: MiddlewareRun,
    name: string,
    readonly call: ToolCallBlock,
    readonly args: unknown,
    private readonly callState: StateAccess,
  ) {
    super(run, name);
  }
  override get state(): StateAccess {
    return this.callState;
  }
}
