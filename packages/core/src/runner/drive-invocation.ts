import { runAgent } from '../invocation/run-agent.js';
import type { Agent } from '../invocation/agent.js';
import { abortErrorOf } from '../invocation/abort.js';
import { InvocationContext, type LiveSession } from '../invocation/invocation-context.js';
import { RunInterruptedSignal } from '../invocation/run-interrupted.js';
import type { AgentEvent, RunStatus } from '../events/agent-event.js';
import { ReplanError } from '../errors/replan-error.js';
import { BudgetExceededError, MaxIterationsError, RunAbortedError } from '../errors/run-errors.js';
import { ConcurrentUpdateError, LeaseLostError } from '../errors/session-errors.js';
import type { Session } from '../sessions/session.js';
import type { SessionStore } from '../sessions/session-store.js';
import { applyStateActions, assertAppendScopes, eventForStorage } from '../sessions/apply-state.js';
import { TEMP_PREFIX } from '../sessions/state-scope.js';
import { GroupCommitWriter, mayOvertake } from './group-commit-writer.js';
import { readInvocation } from './invocation-log.js';
import type { RunResult } from '../events/run-result.js';
import { RunBudget, type RunLimits } from '../invocation/run-limits.js';
import type { PriceTable } from '../models/model-prices.js';
import { sessionTotalsWithChildren } from './session-totals.js';
import type { ObserverHub } from '../observe/observer-hub.js';
import { RunObservation } from '../observe/run-observation.js';
import { fenceAppends, type RunFence } from '../sessions/run-lease.js';
import { checkGuardrails } from '../guardrails/check-guardrails.js';
import { priorValues } from '../sessions/prior-values.js';
import type { GuardrailTrip } from '../events/guardrail-verdict.js';
import { HeldAnswerDeltas } from './held-answer-deltas.js';

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
}

/** Aborts on the caller's signal, when `timeoutMs` runs out, or when the run's lease is lost. */
function runSignal(signal: AbortSignal | undefined, timeoutMs: number | undefined, fence: RunFence | undefined) {
  const controller = new AbortController();
  const onAbort = () => controller.abort(new RunAbortedError(signal?.reason));
  if (signal?.aborted) onAbort();
  else signal?.addEventListener('abort', onAbort, { once: true });
  const onLost = () => controller.abort(fence?.signal.reason);
  fence?.signal.addEventListener('abort', onLost, { once: true });
  const started = Date.now();
  const timer =
    timeoutMs === undefined
      ? undefined
      : setTimeout(() => controller.abort(new BudgetExceededError('timeoutMs', timeoutMs, Date.now() - started)), timeoutMs);
  return {
    signal: controller.signal,
    dispose: () => {
      if (timer) clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      fence?.signal.removeEventListener('abort', onLost);
    },
  };
}

const isTempKey = (key: string) => key.startsWith(TEMP_PREFIX);
const asError = (e: unknown): Error => (e instanceof Error ? e : new Error(String(e)));

/**
 * Runs the root agent for one invocation: stores each non-partial event before the agent goes on
 * (optimistically, against the session version), applies state deltas, forwards every event, and
 * maps how the agent ended to a `RunResult`.
 */
export async function driveInvocation(options: DriveOptions): Promise<RunResult> {
  const { agent, store, emit } = options;
  const budget = options.budget ?? new RunBudget(options.limits, options.prices);
  const { signal, dispose } = runSignal(options.signal, options.limits?.timeoutMs, options.fence);
  const live: LiveSession = {
    appName: options.session.appName,
    userId: options.session.userId,
    id: options.session.id,
    events: options.session.events.slice(),
    state: { ...options.session.state },
    version: options.session.version,
  };
  const interruptIds = options.interruptIds ?? new Set<string>();
  const fence = options.fence;
  const checkLease = fence ? () => fence.check() : options.checkLease;
  const ctx = new InvocationContext(
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
      interruptIds,
      newId: options.newId,
      store,
      forward: emit,
      ...(options.fence ? { fence: options.fence } : {}),
    },
    agent,
    agent.name,
    undefined,
    options.start,
  );

  // Events reach the caller only once durable, in order.
  // The run's own appends carry its lease; `store` itself (in the services) stays unfenced: child
  // sessions (agentTool) are written under leases of their own (`ChildLease`, bound to this one).
  const appendStore = options.fence ? fenceAppends(store, options.fence) : store;
  const writer = new GroupCommitWriter(appendStore, live, live.version, (stored, version) => {
    live.version = version;
    emit(stored);
  });
  /**
   * Stores an event: the live session takes it at once, in order (the agent reads its own
   * writes), and the store group-commits it. The promise settles when it is durable.
   */
  // What the state held before the latest answer set keys of its own (`outputKey`): a blocked answer's values are taken back.
  const guardsOutput = (agent.guardrails?.output?.length ?? 0) > 0;
  let answerStatePriors: Record<string, unknown> | undefined;
  const store1 = (event: AgentEvent, gather = false): Promise<void> => {
    assertAppendScopes(event);
    const stored = eventForStorage(event); // a state value that is not JSON fails here, before anything is stored
    if (guardsOutput && stored.actions?.final !== undefined) answerStatePriors = priorValues(live.state, stored.actions.stateDelta);
    live.events.push(stored);
    // The stored (checked) values, so the run reads what a reload reads; temp: keys from the event: they live for this invocation.
    applyStateActions(live.state, event.actions, isTempKey);
    applyStateActions(live.state, stored.actions);
    if (event.actions?.interrupt) interruptIds.add(event.actions.interrupt.id);
    return writer.write(stored, gather);
  };
  const result = async (status: RunStatus, error?: Error, guardrail?: GuardrailTrip): Promise<RunResult> => {
    const log = readInvocation(live.events, options.invocationId);
    const final = status === 'completed' ? log?.final : undefined;
    return {
      status,
      output: final?.text,
      ...(final?.structured !== undefined ? { structured: final.structured } : {}),
      sessionId: live.id,
      invocationId: options.invocationId,
      interrupts: status === 'interrupted' ? (log?.openInterrupts ?? []) : [],
      usage: budget.usage,
      modelCalls: budget.modelCalls,
      cost: budget.cost,
      breakdown: budget.breakdown(),
      session: await sessionTotalsWithChildren(store, live, budget.prices),
      ...(error ? { error } : {}),
      ...(guardrail ? { guardrail } : {}),
    };
  };
  /** Ends the run for good on a guardrail's tripwire: stored like a completion, so `resume` runs nothing. */
  const block = async (guardrail: GuardrailTrip): Promise<RunResult> => {
    await writer.drain();
    await store1({
      id: options.newId(),
      invocationId: options.invocationId,
      author: agent.name,
      path: agent.name,
      timestamp: Date.now(),
      actions: {
        invocationEnd: { status: 'blocked', guardrail },
        ...(guardrail.stage === 'output' && answerStatePriors ? { stateDelta: answerStatePriors } : {}),
      },
      meta: { kind: 'guardrail-blocked' },
    });
    return result('blocked', undefined, guardrail);
  };
  /** Stores an event describing how the run ended; a store failure here must not hide the cause. */
  const record = async (error: Error, end?: RunStatus) => {
    const event: AgentEvent = {
      id: options.newId(),
      invocationId: options.invocationId,
      author: (error as { agentName?: string }).agentName ?? agent.name,
      path: agent.name,
      timestamp: Date.now(),
      error: { name: error.name, message: error.message },
      ...(end ? { actions: { invocationEnd: { status: end } } } : {}),
      meta: { kind: 'run-error' },
    };
    try {
      await store1(event);
    } catch {
      emit(event);
    }
  };

  /** A refused deferred append stops the run at once (no next model call), not at the next wait. */
  const loseLeaseOn = (error: unknown) => {
    if (error instanceof LeaseLostError) options.fence?.lose(error);
  };

  try {
    if (options.input !== undefined) {
      const tripped = await checkGuardrails(agent.guardrails?.input, 'input', options.input, ctx);
      if (tripped) return await block(tripped);
    }
    // With output guardrails, the answer's streamed text waits for their verdict (see HeldAnswerDeltas).
    const deltas = agent.guardrails?.output?.length ? new HeldAnswerDeltas() : undefined;
    for await (const produced of runAgent(ctx)) {
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
        void store1(event, true).catch(loseLeaseOn); // a failure surfaces at the next wait
      } else await store1(event); // everything before it is durable too
    }
    const pending = writer.drain();
    if (pending) await pending;
    const output = readInvocation(live.events, options.invocationId)?.final?.text;
    if (output !== undefined) {
      const tripped = await checkGuardrails(agent.guardrails?.output, 'output', output, ctx);
      if (tripped) return await block(tripped);
    }
    await store1({
      id: options.newId(),
      invocationId: options.invocationId,
      author: agent.name,
      path: agent.name,
      timestamp: Date.now(),
      actions: { invocationEnd: { status: 'completed', ...(output !== undefined ? { output } : {}) } },
      meta: { kind: 'invocation-end' },
    });
    return result('completed');
  } catch (caught) {
    let error = asError(caught);
    // Writes still in flight end before the run does: what it reports as stored is stored.
    try {
      await writer.drain();
    } catch (failed) {
      error = asError(failed);
    }
    if (signal.aborted && !(error instanceof ReplanError)) error = abortErrorOf(signal);
    // A refused append means the lease was taken over: abort what still runs (tools get the signal).
    if (error instanceof LeaseLostError) options.fence?.lose(error);
    // A lost lease decides, whatever the agent threw on the way out: another run owns the session now.
    if (options.fence?.lost) return result('failed', options.fence.lost);
    if (error instanceof RunInterruptedSignal) return result('interrupted');
    if (error instanceof MaxIterationsError) {
      await record(error, 'max_iterations');
      return result('max_iterations', error);
    }
    if (error instanceof BudgetExceededError) {
      await record(error);
      return result('budget_exceeded', error);
    }
    if (error instanceof RunAbortedError) return result('aborted', error);
    if (!(error instanceof ConcurrentUpdateError)) await record(error);
    return result('failed', error);
  } finally {
    dispose();
  }
}
