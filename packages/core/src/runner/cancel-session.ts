import type { Agent } from '../invocation/agent.js';
import type { AgentEvent, RunStatus } from '../events/agent-event.js';
import type { RunResult } from '../events/run-result.js';
import { ResumeError } from '../errors/resume-error.js';
import type { PriceTable } from '../models/model-prices.js';
import type { SessionKey } from '../sessions/session.js';
import type { ObserverHub } from '../observe/observer-hub.js';
import { carriedOf, reportedRun } from '../observe/report-run.js';
import type { RunStartInfo } from '../observe/run-observer.js';
import { assertSessionKey } from '../sessions/session-key-rules.js';
import type { SessionStore } from '../sessions/session-store.js';
import type { RunLease } from '../sessions/run-lease.js';
import { claimSession } from './active-sessions.js';
import { refuseChildSession } from './child-session-guard.js';
import { compensationOpened } from './compensate-invocation.js';
import { driveInvocation, type DriveOptions } from './drive-invocation.js';
import { readInvocation } from './invocation-log.js';
import { liveRun } from './live-runs.js';
import { buildRunResult } from './run-result-builder.js';
import { sessionToResume } from './session-to-resume.js';

const labels = (key: SessionKey, invocationId: string) => ({
  appName: key.appName,
  userId: key.userId,
  sessionId: key.id,
  invocationId,
  time: Date.now(),
});

/** What `runner.cancel` needs from its runner. */
export interface CancelHost {
  readonly agent: Agent;
  readonly store: SessionStore;
  readonly prices: PriceTable | undefined;
  readonly lease: (key: SessionKey) => RunLease | undefined;
  readonly drive: (lease: RunLease | undefined) => Omit<DriveOptions, 'session' | 'invocationId' | 'start'>;
  readonly emit: (event: AgentEvent) => void;
  /** The runner's observers (absent when none is registered): they hear the cancel, and a close's run. */
  readonly hub?: ObserverHub | undefined;
}

/**
 * `runner.cancel`: aborts the session's run going on in this process (with `compensate`, it undoes
 * and closes itself), else closes its last invocation now — undoing its finished calls first when
 * asked (or when a compensation was opened and a crash stopped it). Returns how it ended.
 */
export async function startCancel(host: CancelHost, key: SessionKey, compensate: boolean): Promise<RunResult> {
  assertSessionKey(key);
  const active = liveRun(host.store, key);
  const hub = host.hub;
  if (active) {
    active.control.abort({ compensate });
    const ended = await active.result;
    // An abort without compensation leaves the session resumable: cancel closes it below (reported
    // there), once the run let go of it. Else the live run reported its own compensations and end;
    // the cancel follows, naming the invocation it ended.
    if (compensate || ended.status !== 'aborted') {
      hub?.notify({ kind: 'cancel', ...labels(key, ended.invocationId), compensate, running: true });
      return ended;
    }
    await active.released;
  }
  const release = claimSession(host.store, key);
  const lease = host.lease(key);
  try {
    const session = await sessionToResume(host.store, key, lease);
    // A child session (agentTool) is cancelled with its root session, never on its own.
    await refuseChildSession(host.store, session, 'resume');
    const log = readInvocation(session.events);
    if (!log)
      throw new ResumeError('nothing_to_resume', `Session "${key.id}" has no invocation to cancel; nothing was done.`, {
        sessionId: key.id,
      });
    if (log.end)
      return await buildRunResult(
        { store: host.store, session, invocationId: log.invocationId, prices: host.prices },
        { status: log.end.status as RunStatus },
      );
    const close = compensate || compensationOpened(session.events, log.start) ? 'compensate' : 'cancel';
    const closing = () => driveInvocation({ ...host.drive(lease), session, invocationId: log.invocationId, start: log.start, close });
    if (!hub) return await closing();
    // Closing a stopped invocation is a run of it like a resume: observers see it start, cancel, compensate and end.
    const carried = carriedOf(session.events[log.start]);
    const start: RunStartInfo = {
      kind: 'run-start',
      ...labels(key, log.invocationId),
      agent: host.agent.name,
      resumed: true,
      ...(carried ? { carried } : {}),
    };
    hub.notify(start);
    hub.notify({ kind: 'cancel', ...labels(key, log.invocationId), compensate: close === 'compensate', running: false });
    return await reportedRun(hub, start, closing());
  } finally {
    await lease?.end();
    release();
  }
}
