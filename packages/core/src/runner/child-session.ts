import type { Agent } from '../invocation/agent.js';
import type { InvocationContext } from '../invocation/invocation-context.js';
import { AGENT_TOOL_INPUT_KIND, type ChildSessionLink, readChildSessionLink } from '../sessions/child-session-link.js';
import { ChildSessionError } from '../errors/composition-errors.js';
import { ConfigurationError } from '../errors/replan-error.js';
import { SessionExistsError, SessionNotFoundError } from '../errors/session-errors.js';
import type { AgentEvent, RunStatus } from '../events/agent-event.js';
import { type Message, messageText } from '../messages/message.js';
import { reportedRun } from '../observe/report-run.js';
import type { RunStartInfo } from '../observe/run-observer.js';
import type { Session, SessionKey } from '../sessions/session.js';
import { assertSessionKey } from '../sessions/session-key-rules.js';
import type { SessionStore } from '../sessions/session-store.js';
import { claimSession } from './active-sessions.js';
import { driveInvocation } from './drive-invocation.js';
import { buildRunResult } from './run-result-builder.js';
import { readInvocation } from './invocation-log.js';
import type { RunResult } from '../events/run-result.js';
import { RunBudget } from '../invocation/run-limits.js';
import { ChildLease } from './child-lease.js';
import { fenceAppends, RunLease } from '../sessions/run-lease.js';

export interface ChildRunOptions {
  /** The calling agent's context in the parent run: its store, budget, signal and ids are shared. */
  readonly parent: InvocationContext;
  readonly agent: Agent;
  readonly key: SessionKey;
  readonly link: ChildSessionLink;
  /** The child's user message (only used when the child session is created). */
  readonly input: Message;
  /** Answers for the child's interrupts, by the child's own interrupt ids. */
  readonly values: Readonly<Record<string, unknown>>;
  /** Receives each event of the child as it is stored there. */
  readonly emit: (event: AgentEvent) => void;
}

/**
 * Runs an agent in a child session of the parent run's store, or picks it up where it stands:
 * created on the first call; continued (with the answers to its open interrupts) when unfinished;
 * a finished child returns its stored result and runs nothing. It shares the parent's budget and
 * abort signal, so it can never spend more than the parent run has left.
 */
export async function runChildSession(options: ChildRunOptions): Promise<RunResult> {
  const { parent, key } = options;
  const store = parent.services.store;
  if (!store) throw new ConfigurationError('agentTool runs only inside a Runner (the run has no session store).');
  assertSessionKey(key);
  const release = claimSession(store, key);
  // The child's own lease, bound to the parent run's (see ChildLease); none when the parent run has none.
  const parentFence = parent.services.fence;
  const lease = parentFence && RunLease.supported(store) ? new ChildLease(store, key, parentFence) : undefined;
  try {
    const existing = lease ? await leasedRead(store, key, lease, parent.services.signal) : await store.get(key);
    if (existing) return await continueChild(store, existing, options, lease);
    const answered = Object.keys(options.values);
    if (answered.length) throw ChildSessionError.missing(key.id, answered);
    return await startChild(store, options, lease);
  } finally {
    await lease?.end();
    release();
  }
}

/**
 * The child as it stands once this run holds its lease (the lease first: from then on a previous
 * holder, such as a parent run that was taken over, can append nothing more), or `undefined` when
 * it does not exist yet (then it is created, and leased right after).
 */
async function leasedRead(store: SessionStore, key: SessionKey, lease: ChildLease, signal: AbortSignal): Promise<Session | undefined> {
  try {
    await lease.acquire(signal);
  } catch (error) {
    if (error instanceof SessionNotFoundError) return undefined;
    throw error;
  }
  return store.get(key);
}

/** A child created by another process meanwhile, read again under this run's lease. */
async function leased(store: SessionStore, session: Session, lease: ChildLease | undefined, signal: AbortSignal): Promise<Session> {
  if (!lease) return session;
  await lease.acquire(signal);
  return (await store.get({ appName: session.appName, userId: session.userId, id: session.id })) ?? session;
}

function driveBase(options: ChildRunOptions, store: SessionStore, lease: ChildLease | undefined) {
  const { services } = options.parent;
  return {
    agent: options.agent,
    store,
    // With a lease of its own the child's check covers the parent's too; else the parent's check is passed on.
    ...(lease ? { fence: lease } : {}),
    newId: () => services.newId(),
    emit: options.emit,
    streaming: services.streaming,
    signal: services.signal,
    ...(services.checkLease ? { checkLease: services.checkLease } : {}),
    budget: nestedBudget(services.budget, `${options.link.path}/${options.link.toolName}`, options.parent.label?.id),
    ...(services.observation ? { hub: services.observation.hub } : {}),
  };
}

/**
 * Runs the child's invocation reported to the parent run's observers, as a run of its own linked
 * to the tool call that runs it (`RunStartInfo.parent`), so a trace nests it under that call.
 */
function observedChild(
  options: ChildRunOptions,
  key: SessionKey,
  invocation: { readonly invocationId: string; readonly resumed: boolean; readonly input?: Message },
  drive: () => Promise<RunResult>,
): Promise<RunResult> {
  const { parent, link } = options;
  const observation = parent.services.observation;
  if (!observation) return drive();
  const start: RunStartInfo = {
    kind: 'run-start',
    appName: key.appName,
    userId: key.userId,
    sessionId: key.id,
    invocationId: invocation.invocationId,
    time: Date.now(),
    agent: options.agent.name,
    resumed: invocation.resumed,
    ...(invocation.input ? { input: invocation.input } : {}),
    parent: {
      sessionId: link.parentSessionId,
      invocationId: link.parentInvocationId,
      agentRunId: observation.scopeOf(parent).agentRunId,
      toolCallId: link.toolCallId,
      toolName: link.toolName,
    },
  };
  observation.hub.notify(start);
  return reportedRun(observation.hub, start, drive());
}

/**
 * The parent's budget as the child run uses it: the same limits, checked against the parent's
 * counters (the child cannot spend more than the parent has left), every call counted in the
 * parent's totals with the child's usage recorded under its nested path (`<caller>/<tool>/<inner
 * path>`) and, when the call belongs to a plan step, under that step. What the child's own result
 * reports (usage, cost, model calls, breakdown) is the child's alone.
 */
function nestedBudget(budget: RunBudget, prefix: string, label: string | undefined): RunBudget {
  const own = new RunBudget({}, budget.prices);
  const view = Object.create(budget) as RunBudget; // anything not redefined here is the parent's
  Object.defineProperties(view, {
    usage: { get: () => own.usage },
    cost: { get: () => own.cost },
    modelCalls: { get: () => own.modelCalls },
  });
  // What is left and the reserve are the parent's: the child spends from the parent's limits.
  view.used = () => budget.used();
  view.view = () => budget.view();
  view.underReserve = () => budget.underReserve();
  view.beginAnswer = () => budget.beginAnswer();
  view.answerOutputCap = (request, modelId) => budget.answerOutputCap(request, modelId);
  view.beforeModelCall = (modelId, request) => {
    const sent = budget.beforeModelCall(modelId, request);
    own.modelCalls++;
    return sent;
  };
  view.afterModelCall = (sent) => budget.afterModelCall(sent);
  view.whenRoom = (error) => budget.whenRoom(error);
  view.recordUsage = (modelId, usage, site) => {
    budget.recordUsage(modelId, usage, site && { ...site, path: `${prefix}/${site.path}`, label: site.label ?? label });
    own.recordUsage(modelId, usage, site);
  };
  view.breakdown = () => own.breakdown();
  return view;
}

async function startChild(store: SessionStore, options: ChildRunOptions, lease: ChildLease | undefined): Promise<RunResult> {
  const invocationId = options.parent.services.newId();
  const input: AgentEvent = {
    id: options.parent.services.newId(),
    invocationId,
    author: 'user',
    path: 'user',
    timestamp: Date.now(),
    message: options.input,
    meta: { kind: AGENT_TOOL_INPUT_KIND, parent: { ...options.link } },
  };
  let session: Session;
  try {
    session = await store.create({ ...options.key }, [input]);
  } catch (error) {
    if (!(error instanceof SessionExistsError)) throw error;
    const raced = await store.get(options.key); // created meanwhile by another process
    if (!raced) throw error;
    return continueChild(store, await leased(store, raced, lease, options.parent.services.signal), options, lease);
  }
  // Nobody else can hold a lease on a session that did not exist: the creator takes it at once.
  await lease?.acquire(options.parent.services.signal);
  options.emit(input);
  return observedChild(options, options.key, { invocationId, resumed: false, input: options.input }, () =>
    driveInvocation({ ...driveBase(options, store, lease), session, invocationId, start: 0, input: messageText(options.input) }),
  );
}

async function continueChild(
  store: SessionStore,
  session: Session,
  options: ChildRunOptions,
  lease: ChildLease | undefined,
): Promise<RunResult> {
  const link = readChildSessionLink(session.events[0]?.meta);
  if (!link || link.parentSessionId !== options.link.parentSessionId || link.toolCallId !== options.link.toolCallId)
    throw ChildSessionError.conflict(session.id, options.link);
  const log = readInvocation(session.events);
  if (!log) throw ChildSessionError.conflict(session.id, options.link);
  const stored = (status: RunStatus, error?: Error): Promise<RunResult> =>
    buildRunResult({ store, session, invocationId: log.invocationId, prices: options.parent.services.budget.prices }, { status, error });
  if (log.end) {
    const reason = lastError(session.events, log.start);
    return stored(log.end.status as RunStatus, reason);
  }
  // Answers the parent holds for questions the child already got (a crash after its resume marker) are not sent twice.
  const values = Object.fromEntries(Object.entries(options.values).filter(([id]) => log.openInterrupts.some((i) => i.id === id)));
  if (log.openInterrupts.length && !Object.keys(values).length) return stored('interrupted');
  const marker: AgentEvent = {
    id: options.parent.services.newId(),
    invocationId: log.invocationId,
    author: 'user',
    path: 'user',
    timestamp: Date.now(),
    actions: { resumeValues: values },
    meta: { kind: 'resume' },
  };
  const appendStore = lease ? fenceAppends(store, lease) : store;
  const { version } = await appendStore.appendEvents(options.key, [marker], { expectedVersion: session.version });
  for (const [id, value] of Object.entries(values)) log.resumeValues.set(id, value);
  return observedChild(options, options.key, { invocationId: log.invocationId, resumed: true }, () =>
    driveInvocation({
      ...driveBase(options, store, lease),
      session: { ...session, events: [...session.events, marker], version },
      invocationId: log.invocationId,
      start: log.start,
      resumeValues: log.resumeValues,
      interruptIds: log.interruptIds,
    }),
  );
}

/** The error a finished child stored (e.g. `MaxIterationsError`), rebuilt for the parent's tool result. */
function lastError(events: readonly AgentEvent[], start: number): Error | undefined {
  for (let i = events.length - 1; i >= start; i--) {
    const error = events[i]?.error;
    if (error) return Object.assign(new Error(error.message), { name: error.name });
  }
  return undefined;
}
