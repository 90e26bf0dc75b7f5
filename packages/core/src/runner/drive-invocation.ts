import { runAgent } from '../invocation/run-agent.js';
import type { Agent } from '../invocation/agent.js';
import { abortErrorOf } from '../errors/abort.js';
import { InvocationContext, type LiveSession } from '../invocation/invocation-context.js';
import type { AgentEvent, RunStatus } from '../events/agent-event.js';
import { LeaseLostError } from '../errors/session-errors.js';
import type { Session } from '../sessions/session.js';
import type { SessionStore } from '../sessions/session-store.js';
import { applyStateActions, assertAppendScopes, eventForStorage } from '../sessions/apply-state.js';
import { TEMP_PREFIX } from '../sessions/state-scope.js';
import { GroupCommitWriter, mayOvertake } from './group-commit-writer.js';
import { readInvocation } from './invocation-log.js';
import type { RunResult } from '../events/run-result.js';
import { RunBudget, type RunLimits } from '../invocation/run-limits.js';
import type { PriceTable } from '../models/model-prices.js';
import type { ObserverHub } from '../observe/observer-hub.js';
import { RunObservation } from '../observe/run-observation.js';
import { fenceAppends, type RunFence } from '../sessions/run-lease.js';
import { checkGuardrails } from '../guardrails/check-guardrails.js';
import { priorValues } from '../sessions/prior-values.js';
import type { GuardrailTrip } from '../events/guardrail-verdict.js';
import { HeldAnswerDeltas } from './held-answer-deltas.js';
import { runEndingOf } from './run-ending.js';
import { buildRunResult, type RunEnd } from './run-result-builder.js';
import { runSignal } from './run-signal.js';
import { closeCancelled, compensateInvocation, compensateScope, type ClosingHost } from './compensate-invocation.js';

export interface DriveOptions {
  readonly agent: Agent;
  readonly store: SessionStore;
  readonly session: Session;
  readonly invocationId: string;
  /** Index of the invocation's first event. */
  readonly start: number;
  readonly newId: () => string;
  readonly emit: (event: AgentEvent) => void;
  readonly streaming: boolean;
  readonly signal?: AbortSignal;
  readonly limits?: RunLimits;
  /** The runner's price table (`limits.prices` overrides it model by model). */
  readonly prices?: PriceTable;
  /** The runner's observers (absent when none is registered). */
  readonly hub?: ObserverHub;
  readonly resumeValues?: Map<string, unknown>;
  readonly interruptIds?: Set<string>;
  /** A budget shared with an enclosing run (a child session of `agentTool`); default: one from `limits`. */
  readonly budget?: RunBudget;
  /** The run's lease: its loss aborts the run, which then ends `failed` with the `LeaseLostError`. */
  readonly fence?: RunFence;
  /** The enclosing run's lease check (a child session of `agentTool` runs under its parent's lease). */
  readonly checkLease?: () => void;
  /** The text of the invocation's user input (on `run` and on `resume`): input guardrails check it. */
  readonly input?: string;
  /**
   * Close the invocation instead of running the agent (`runner.cancel`, or a resume finishing a
   * compensation a crash interrupted): `'compensate'` undoes its finished calls first.
   */
  readonly close?: 'compensate' | 'cancel';
  /** Asked when the run is aborted: `true` (`run.abort({ compensate: true })`) undoes its finished calls and closes it. */
  readonly compensateOnAbort?: () => boolean;
}

const isTempKey = (key: string) => key.startsWith(TEMP_PREFIX);
const asError = (e: unknown): Error => (e instanceof Error ? e : new Error(String(e)));

/**
 * One invocation of the root agent, driven to its end: stores each non-partial event before the agent
 * goes on (optimistically, against the session version), applies state deltas, forwards every event,
 * checks guardrails, and ends in one place (`end`), where the `RunResult` is built.
 */
export class InvocationDrive {
  private readonly budget: RunBudget;
  private readonly live: LiveSession;
  private readonly interruptIds: Set<string>;
  private readonly ctx: InvocationContext;
  private readonly writer: GroupCommitWriter;
  private readonly signal: AbortSignal;
  private readonly dispose: () => void;
  // What the state held before the latest answer set keys of its own (`outputKey`): a blocked answer's values are taken back.
  private readonly guardsOutput: boolean;
  private answerStatePriors: Record<string, unknown> | undefined;

  constructor(private readonly options: DriveOptions) {
    const { agent, store, emit } = options;
    const budget = options.budget ?? new RunBudget(options.limits, options.prices);
    this.budget = budget;
    const { signal, dispose } = runSignal(options.signal, options.limits?.timeoutMs, options.fence);
    this.signal = signal;
    this.dispose = dispose;
    const live: LiveSession = {
      appName: options.session.appName,
      userId: options.session.userId,
      id: options.session.id,
      events: options.session.events.slice(),
      state: { ...options.session.state },
      version: options.session.version,
    };
    this.live = live;
    this.interruptIds = options.interruptIds ?? new Set<string>();
    const fence = options.fence;
    const checkLease = fence ? () => fence.check() : options.checkLease;
    this.ctx = new InvocationContext(
      {
        invocationId: options.invocationId,
        session: live,
        signal,
        ...(checkLease ? { checkLease } : {}),
        streaming: options.streaming,
        budget,
        ...(options.hub
          ? {
              observation: new RunObservation(
                options.hub,
                { appName: live.appName, userId: live.userId, sessionId: live.id, invocationId: options.invocationId },
                (model, usage) => budget.priceOf(model, usage),
              ),
            }
          : {}),
        resumeValues: options.resumeValues ?? new Map(),
        interruptIds: this.interruptIds,
        newId: options.newId,
        store,
        forward: emit,
        ...(fence ? { fence } : {}),
        compensate: compensateScope(agent),
        // A tool's own events (toolCallRun) go through the same ordered, fenced writer as the agent's.
        appendNow: async (event) => this.store(event),
      },
      agent,
      agent.name,
      undefined,
      options.start,
    );
    // Events reach the caller only once durable, in order.
    // The run's own appends carry its lease; `store` itself (in the services) stays unfenced: child
    // sessions (agentTool) are written under leases of their own (`ChildLease`, bound to this one).
    const appendStore = fence ? fenceAppends(store, fence) : store;
    this.writer = new GroupCommitWriter(appendStore, live, live.version, (stored, version) => {
      live.version = version;
      emit(stored);
    });
    this.guardsOutput = (agent.guardrails?.output?.length ?? 0) > 0;
  }

  /** Runs the invocation; resolves with how it ended (never rejects for what the agent threw). */
  async run(): Promise<RunResult> {
    try {
      const close = this.options.close;
      if (close) return this.end(await (close === 'compensate' ? compensateInvocation : closeCancelled)(this.closing()));
      return await this.drive();
    } catch (caught) {
      return await this.fail(asError(caught));
    } finally {
      this.dispose();
    }
  }

  private async drive(): Promise<RunResult> {
    const options = this.options;
    const agent = options.agent;
    if (options.input !== undefined) {
      const tripped = await checkGuardrails(agent.guardrails?.input, 'input', options.input, this.ctx);
      if (tripped) return await this.block(tripped);
    }
    // With output guardrails, the answer's streamed text waits for their verdict (see HeldAnswerDeltas).
    const deltas = this.guardsOutput ? new HeldAnswerDeltas() : undefined;
    const writer = this.writer;
    const emit = options.emit;
    for await (const produced of runAgent(this.ctx)) {
      let event = produced;
      if (event.partial) {
        if (deltas?.hold(event)) continue;
        const pending = writer.drain();
        if (pending) await pending; // keep the order: earlier results reach the caller first
        emit(event);
        continue;
      }
      if (deltas) {
        const settled = deltas.settle(event);
        event = settled.event;
        if (settled.before.length > 0) {
          const pending = writer.drain();
          if (pending) await pending;
          for (const delta of settled.before) emit(delta);
        }
      }
      if (mayOvertake(event)) {
        // A tool's result: pull the next one while this is flushed (group commit).
        void this.store(event, true).catch(this.loseLeaseOn); // a failure surfaces at the next wait
      } else await this.store(event); // everything before it is durable too
    }
    const pending = writer.drain();
    if (pending) await pending;
    const output = readInvocation(this.live.events, options.invocationId)?.final?.text;
    if (output !== undefined) {
      const tripped = await checkGuardrails(agent.guardrails?.output, 'output', output, this.ctx);
      if (tripped) return await this.block(tripped);
    }
    await this.store(
      this.runEvent({
        actions: { invocationEnd: { status: 'completed', ...(output !== undefined ? { output } : {}) } },
        meta: { kind: 'invocation-end' },
      }),
    );
    return this.end({ status: 'completed' });
  }

  /**
   * Stores an event: the live session takes it at once, in order (the agent reads its own
   * writes), and the store group-commits it. The promise settles when it is durable.
   */
  private store(event: AgentEvent, gather = false): Promise<void> {
    const live = this.live;
    assertAppendScopes(event);
    const stored = eventForStorage(event); // a state value that is not JSON fails here, before anything is stored
    if (this.guardsOutput && stored.actions?.final !== undefined)
      this.answerStatePriors = priorValues(live.state, stored.actions.stateDelta);
    live.events.push(stored);
    // The stored (checked) values, so the run reads what a reload reads; temp: keys from the event: they live for this invocation.
    applyStateActions(live.state, event.actions, isTempKey);
    applyStateActions(live.state, stored.actions);
    if (event.actions?.interrupt) this.interruptIds.add(event.actions.interrupt.id);
    return this.writer.write(stored, gather);
  }

  /** An event of the run itself (not of an agent), authored by the root agent. */
  private runEvent(fields: Pick<AgentEvent, 'actions' | 'meta' | 'error'>, author = this.options.agent.name): AgentEvent {
    // The run's budget as it ended (`meta.budget`: limits, used, left), when it had limits: the
    // limits are not stored anywhere else, and a reader of the log (the studio) shows what was left.
    const budget = this.budget.view();
    return {
      id: this.options.newId(),
      invocationId: this.options.invocationId,
      author,
      path: this.options.agent.name,
      timestamp: Date.now(),
      ...fields,
      ...(budget ? { meta: { ...fields.meta, budget } } : {}),
    };
  }

  /** Ends the run for good on a guardrail's tripwire: stored like a completion, so `resume` runs nothing. */
  private async block(guardrail: GuardrailTrip): Promise<RunResult> {
    await this.writer.drain();
    const priors = guardrail.stage === 'output' ? this.answerStatePriors : undefined;
    await this.store(
      this.runEvent({
        actions: { invocationEnd: { status: 'blocked', guardrail }, ...(priors ? { stateDelta: priors } : {}) },
        meta: { kind: 'guardrail-blocked' },
      }),
    );
    return this.end({ status: 'blocked', guardrail });
  }

  /**
   * How a run that threw ends: the one place that decides it. A lost lease decides first (another run
   * owns the session now, whatever the agent threw on the way out); else `runEndingOf`'s table.
   */
  private async fail(thrown: Error): Promise<RunResult> {
    let error = thrown;
    // Writes still in flight end before the run does: what it reports as stored is stored.
    try {
      await this.writer.drain();
    } catch (failed) {
      error = asError(failed);
    }
    const fence = this.options.fence;
    const decided = runEndingOf(error, this.signal.aborted, () => abortErrorOf(this.signal));
    // A refused append means the lease was taken over: abort what still runs (tools get the signal).
    if (decided.error instanceof LeaseLostError) fence?.lose(decided.error);
    if (fence?.lost) return this.end({ status: 'failed', error: fence.lost });
    const { ending } = decided;
    if (ending.status === 'aborted' && this.options.compensateOnAbort?.()) {
      try {
        return this.end(await compensateInvocation(this.closing()));
      } catch (failed) {
        return this.end({ status: 'failed', error: asError(failed) });
      }
    }
    if (ending.record !== 'nothing') await this.recordError(decided.error, ending.record === 'end' ? ending.status : undefined);
    return this.end({ status: ending.status, ...(ending.reportError ? { error: decided.error } : {}) });
  }

  /** Stores an event describing how the run ended; a store failure here must not hide the cause. */
  private async recordError(error: Error, end: RunStatus | undefined): Promise<void> {
    const event = this.runEvent(
      {
        error: { name: error.name, message: error.message },
        ...(end ? { actions: { invocationEnd: { status: end } } } : {}),
        meta: { kind: 'run-error' },
      },
      (error as { agentName?: string }).agentName ?? this.options.agent.name,
    );
    try {
      await this.store(event);
    } catch {
      this.options.emit(event);
    }
  }

  /** What closing the invocation (cancel, compensation) needs from this drive. */
  private closing(): ClosingHost {
    return {
      ctx: this.ctx,
      agent: this.options.agent,
      start: this.options.start,
      store: (event) => this.store(event),
      fence: this.options.fence,
    };
  }

  /** The run's result: every ending goes through here. */
  private end(end: RunEnd): Promise<RunResult> {
    const { options } = this;
    return buildRunResult(
      { store: options.store, session: this.live, invocationId: options.invocationId, prices: this.budget.prices, budget: this.budget },
      end,
    );
  }

  /** A refused deferred append stops the run at once (no next model call), not at the next wait. */
  private readonly loseLeaseOn = (error: unknown): void => {
    if (error instanceof LeaseLostError) this.options.fence?.lose(error);
  };
}

/** Drives one invocation to its end (`new InvocationDrive(options).run()`). */
export const driveInvocation = (options: DriveOptions): Promise<RunResult> => new InvocationDrive(options).run();
