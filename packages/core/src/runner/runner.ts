import { newEventId } from '../events/event-id.js';
import type { Agent } from '../invocation/agent.js';
import { assertUniqueAgentNames } from '../invocation/agent-name.js';
import type { AgentEvent, Interrupt, RunStatus } from '../events/agent-event.js';
import { ConfigurationError } from '../errors/replan-error.js';
import { ResumeError } from '../errors/resume-error.js';
import { checkedResumeValues } from './resume-values.js';
import { SessionNotFoundError } from '../errors/session-errors.js';
import { type Message, messageText, toUserMessage } from '../messages/message.js';
import { assertMediaBlocks } from '../messages/media-check.js';
import type { Session, SessionKey } from '../sessions/session.js';
import { jsonStateDelta } from '../sessions/json-state.js';
import { assertIdentifier, assertSessionKey } from '../sessions/session-key-rules.js';
import type { SessionStore } from '../sessions/session-store.js';
import { driveInvocation } from './drive-invocation.js';
import { checkRunLimits } from '../invocation/run-limits-check.js';
import { buildRunResult, type RunEnd } from './run-result-builder.js';
import { claimSession } from './active-sessions.js';
import { readInvocation } from './invocation-log.js';
import { openInterruptsOf } from './open-interrupts.js';
import { storeRunInput } from './store-run-input.js';
import { refuseChildSession } from './child-session-guard.js';
import { mayBeChildSessionId } from '../sessions/child-session-link.js';
import { defaultSessionStore, sessionToResume } from './session-to-resume.js';
import { Run, type RunControl, type RunSession } from './run.js';
import { trackRun } from './live-runs.js';
import { compensationOpened } from './compensate-invocation.js';
import { startCancel } from './cancel-session.js';
import type { RunResult } from '../events/run-result.js';
import { assertLeaseOwner, assertLeaseTtl } from '../sessions/session-lease.js';
import { defaultLeaseOwner, fenceAppends, RunLease } from '../sessions/run-lease.js';
import { checkPriceTable, type PriceTable } from '../models/model-prices.js';
import { ObserverHub } from '../observe/observer-hub.js';
import type { RunStartInfo } from '../observe/run-observer.js';
import { carriedOf, reportedRun, reportRunThrew } from '../observe/report-run.js';
import type { CancelOptions, CommonRunOptions, PendingOptions, ResumeOptions, RunnerOptions, RunOptions } from './run-options.js';

/**
 * Runs an agent tree over sessions: `run` starts an invocation with user input, `resume` continues
 * the last one (after an interrupt, a crash, an abort or a budget stop) from the stored events.
 */
export class Runner {
  readonly agent: Agent;
  readonly appName: string;
  readonly sessionStore: SessionStore;
  private readonly newId: () => string;
  private readonly hub: ObserverHub | undefined;
  private readonly prices: PriceTable | undefined;
  /** Lease duration in ms. */
  readonly leaseMs: number;
  /** This runner's lease owner id. */
  readonly owner: string;

  constructor(options: RunnerOptions) {
    if (!options.agent) throw new ConfigurationError('Runner needs an agent.');
    if (!options.appName) throw new ConfigurationError('Runner needs an appName (sessions are stored per app).');
    assertIdentifier('appName', options.appName);
    assertUniqueAgentNames(options.agent);
    this.agent = options.agent;
    this.appName = options.appName;
    this.sessionStore = options.sessionStore ?? defaultSessionStore();
    this.newId = options.generateId ?? newEventId;
    this.hub = options.observers?.length ? new ObserverHub(options.observers, options.onObserverError) : undefined;
    checkPriceTable(options.prices, 'new Runner({ prices })');
    this.prices = options.prices;
    this.leaseMs = options.leaseMs ?? 30_000;
    this.owner = options.owner ?? defaultLeaseOwner();
    try {
      assertLeaseTtl(this.leaseMs);
      assertLeaseOwner(this.owner);
    } catch (error) {
      throw new ConfigurationError(`Runner options leaseMs/owner: ${(error as Error).message}`);
    }
  }

  /**
   * Starts an invocation at once: stores the user's input, then runs the agent. The returned `Run`
   * runs and stores whether or not it is read (see `Run`). A bad `userId`/`sessionId`
   * (`InvalidArgumentError`), a `state` that is not JSON (`StateValueError`) or a bad image or file
   * (`InvalidMediaError`) rejects `result()` (and the iteration) before anything is stored.
   */
  run(options: RunOptions): Run {
    const sessionId = options.sessionId ?? this.newId();
    return new Run(
      async (emit, signal, control) => {
        const key: SessionKey = { appName: this.appName, userId: options.userId, id: sessionId };
        assertSessionKey(key);
        assertMediaBlocks(toUserMessage(options.input).content, "the run's input");
        if (options.state) options = { ...options, state: jsonStateDelta(options.state) };
        const release = claimSession(this.sessionStore, key);
        const lease = this.leaseFor(key);
        const running = this.startRun(key, options, emit, signal, lease, control);
        const live = trackRun(this.sessionStore, key, { control, result: running });
        try {
          return await running;
        } finally {
          live.untrack();
          await lease?.end();
          release();
          live.released();
        }
      },
      this.runSession(options.userId, sessionId),
      options.signal,
    );
  }

  private runSession(userId: string, sessionId: string): RunSession {
    return { sessionStore: this.sessionStore, appName: this.appName, userId, sessionId };
  }

  private async startRun(
    key: SessionKey,
    options: RunOptions,
    emit: (e: AgentEvent) => void,
    signal: AbortSignal,
    lease: RunLease | undefined,
    control: RunControl,
  ): Promise<RunResult> {
    if (options.limits) checkRunLimits(options.limits, this.agent);
    const invocationId = this.newId();
    let input: AgentEvent = {
      id: this.newId(),
      invocationId,
      author: 'user',
      path: 'user',
      timestamp: Date.now(),
      message: toUserMessage(options.input),
    };
    const hub = this.hub;
    let start: RunStartInfo | undefined;
    if (hub) {
      start = {
        kind: 'run-start',
        ...this.labels(key, invocationId),
        agent: this.agent.name,
        resumed: false,
        input: input.message as Message,
      };
      hub.notify(start);
      const carried = hub.carry(start);
      if (carried) input = { ...input, meta: { observe: carried } };
    }
    let session: Session;
    try {
      session = await storeRunInput(this.sessionStore, this.newId, key, input, options, lease);
    } catch (error) {
      if (hub && start) reportRunThrew(hub, start, error);
      throw error;
    }
    emit(input);
    return this.reported(
      start,
      driveInvocation({
        ...this.driveBase(options, emit, signal, lease, control),
        session,
        invocationId,
        start: session.events.length - 1,
        input: messageText(input.message),
      }),
    );
  }

  /** Reports how a run ended to the observers (also when it threw instead of ending). */
  private reported(start: RunStartInfo | undefined, running: Promise<RunResult>): Promise<RunResult> {
    return this.hub && start ? reportedRun(this.hub, start, running) : running;
  }

  private labels(key: SessionKey, invocationId: string) {
    return { appName: key.appName, userId: key.userId, sessionId: key.id, invocationId, time: Date.now() };
  }

  /**
   * Continues the session's last invocation. With `values`, answers its open interrupts (the
   * tools that asked run again and receive them). Without, continues after a crash, an abort or
   * a budget stop; a finished invocation returns its stored result without calling any model.
   * A child session of an `agentTool` call is refused (a `ChildSessionError` of kind `resume`, naming the root
   * session and interrupt ids to answer instead): it is resumed only through its root session.
   */
  resume(options: ResumeOptions): Run {
    return new Run(
      async (emit, signal, control) => {
        const key: SessionKey = { appName: this.appName, userId: options.userId, id: options.sessionId };
        assertSessionKey(key);
        const release = claimSession(this.sessionStore, key);
        const lease = this.leaseFor(key);
        const running = this.startResume(key, options, emit, signal, lease, control);
        const live = trackRun(this.sessionStore, key, { control, result: running });
        try {
          return await running;
        } finally {
          live.untrack();
          await lease?.end();
          release();
          live.released();
        }
      },
      this.runSession(options.userId, options.sessionId),
      options.signal,
    );
  }

  private async startResume(
    key: SessionKey,
    options: ResumeOptions,
    emit: (e: AgentEvent) => void,
    signal: AbortSignal,
    lease: RunLease | undefined,
    control: RunControl,
  ): Promise<RunResult> {
    if (options.limits) checkRunLimits(options.limits, this.agent);
    const asked = [...Object.keys(options.values ?? {}), ...Object.keys(options.approvals ?? {})];
    // A child session (agentTool) is refused before its lease is touched: nothing at all is written there.
    if (mayBeChildSessionId(key.id)) {
      const child = await this.sessionStore.get(key);
      if (child) await refuseChildSession(this.sessionStore, child, 'resume', asked);
    }
    const session = await sessionToResume(this.sessionStore, key, lease);
    await refuseChildSession(this.sessionStore, session, 'resume', asked);
    const log = readInvocation(session.events);
    if (!log) throw ResumeError.nothingToResume(key.id);
    const values = checkedResumeValues(options, log.openInterrupts, this.agent, session);
    const hub = this.hub;
    let start: RunStartInfo | undefined;
    if (hub) {
      const carried = carriedOf(session.events[log.start]);
      start = {
        kind: 'run-start',
        ...this.labels(key, log.invocationId),
        agent: this.agent.name,
        resumed: true,
        ...(carried ? { carried } : {}),
      };
      hub.notify(start);
      hub.notify({ kind: 'resume', ...this.labels(key, log.invocationId), values });
    }
    const done = (end: RunEnd): Promise<RunResult> =>
      this.reported(start, buildRunResult({ store: this.sessionStore, session, invocationId: log.invocationId, prices: this.prices }, end));
    if (log.end) return done({ status: log.end.status as RunStatus, guardrail: log.end.guardrail });
    // A compensation a crash interrupted is finished, whatever else the invocation waited on.
    const compensating = compensationOpened(session.events, log.start);
    if (log.openInterrupts.length && !Object.keys(values).length && !compensating) return done({ status: 'interrupted' });
    // Across processes the resume event is the claim: a concurrent resume fails here, before doing anything.
    const marker: AgentEvent = {
      id: this.newId(),
      invocationId: log.invocationId,
      author: 'user',
      path: 'user',
      timestamp: Date.now(),
      actions: { resumeValues: values },
      meta: { kind: 'resume' },
    };
    const store = lease ? fenceAppends(this.sessionStore, lease) : this.sessionStore;
    let version: number;
    try {
      ({ version } = await store.appendEvents(key, [marker], { expectedVersion: session.version }));
    } catch (error) {
      if (hub && start) reportRunThrew(hub, start, error);
      throw error;
    }
    emit(marker);
    for (const [id, value] of Object.entries(values)) log.resumeValues.set(id, value);
    const first = session.events[log.start];
    return this.reported(
      start,
      driveInvocation({
        ...this.driveBase(options, emit, signal, lease, control),
        ...(compensating ? { close: 'compensate' as const } : {}),
        session: { ...session, events: [...session.events, marker], version },
        invocationId: log.invocationId,
        start: log.start,
        resumeValues: log.resumeValues,
        interruptIds: log.interruptIds,
        // Checked again: a run that failed in (or before) its input check must not skip it on resume.
        ...(first?.message && first.author === 'user' ? { input: messageText(first.message) } : {}),
      }),
    );
  }

  /**
   * What the session waits on: the open interrupts of its last run (approvals, plan reviews,
   * questions), each answered with `runner.resume({ approvals | values })`. Empty when the session
   * waits on nothing (its last run ended, or it has none); `SessionNotFoundError` when it does not exist.
   */
  async pending(options: PendingOptions): Promise<readonly Interrupt[]> {
    const key: SessionKey = { appName: this.appName, userId: options.userId, id: options.sessionId };
    assertSessionKey(key);
    const session = await this.sessionStore.get(key);
    if (!session) throw new SessionNotFoundError(key.appName, key.userId, key.id);
    return openInterruptsOf(session.events)?.interrupts ?? [];
  }

  /** The run's lease when the store supports leases (else the run relies on versions alone). */
  private leaseFor(key: SessionKey): RunLease | undefined {
    return RunLease.supported(this.sessionStore) ? new RunLease(this.sessionStore, key, this.owner, this.leaseMs) : undefined;
  }

  /** `signal` is the run's own: the caller's `signal` or `run.abort()`. */
  private driveBase(
    options: CommonRunOptions,
    emit: (e: AgentEvent) => void,
    signal: AbortSignal,
    lease: RunLease | undefined,
    control?: RunControl,
  ) {
    return {
      agent: this.agent,
      store: this.sessionStore,
      ...(lease ? { fence: lease } : {}),
      newId: this.newId,
      emit,
      streaming: options.stream ?? false,
      ...(this.hub ? { hub: this.hub } : {}),
      ...(this.prices ? { prices: this.prices } : {}),
      signal,
      ...(options.limits ? { limits: options.limits } : {}),
      ...(control ? { compensateOnAbort: control.compensate } : {}),
    };
  }

  /**
   * Cancels the session's last invocation for good. A run of it going on in this process is
   * aborted (with `compensate`, like `run.abort({ compensate: true })`), and the returned `Run`'s
   * `result()` is how that run ends (its events stay on its own `Run`). When nothing runs here — the
   * session stopped: interrupted, aborted, failed, crashed — its invocation is closed now: with
   * `compensate: true` its finished compensable calls are undone first (reverse order of
   * completion, each a stored `<callId>:compensate` call); it ends `aborted`, or `failed` with a
   * `CompensationError`. An invocation already closed is returned as stored; a run going on in
   * another process is refused (`SessionBusyError`, once its lease is seen).
   */
  cancel(options: CancelOptions): Run {
    return new Run(
      (emit, signal) =>
        startCancel(
          {
            agent: this.agent,
            store: this.sessionStore,
            prices: this.prices,
            lease: (key) => this.leaseFor(key),
            drive: (lease) => this.driveBase(options, emit, signal, lease),
            emit,
            hub: this.hub,
          },
          { appName: this.appName, userId: options.userId, id: options.sessionId },
          options.compensate === true,
        ),
      this.runSession(options.userId, options.sessionId),
    );
  }
}
