import {
  LeaseLostError,
  ResumeError,
  SessionBusyError,
  SessionExistsError,
  SessionStoreError,
  type Interrupt,
  type Runner,
  type SessionKey,
} from '@replan/core';
import type { SessionCreatedMark } from './session-created-mark.js';
import { DbosError } from './dbos-errors.js';
import type { RunRequest } from './run-ids.js';

/** Where a run stands after a DBOS step: small, so DBOS stores little (the session log holds the rest). */
export interface RunStand {
  /**
   * `interrupted` while it waits for `answer`; `running` once an answer was received; else how it
   * ended: a `RunStatus` (`completed`, `failed`, `budget_exceeded`, …), `cancelled` after `cancel`,
   * or `deleted` when its session was deleted while the run was under way (`error` names it).
   */
  readonly status: string;
  /** The session's log length (its version) when the step ended. */
  readonly offset: number;
  /** Open interrupts (status `interrupted`). */
  readonly interrupts: readonly Interrupt[];
  /** The answer text (status `completed`). */
  readonly output?: string;
  /** Why it failed (status `failed`), or a `DbosError` of kind `session_deleted` (status `deleted`). */
  readonly error?: { readonly name: string; readonly message: string };
}

/** What the run workflow is given when it is enqueued. */
export interface RunInput extends RunRequest {
  readonly input: string;
  /** Which `start` call enqueued it: of two concurrent starts, the one whose id DBOS stored won. */
  readonly startId?: string;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * One DBOS step: advances the run through the runner until it ends or stops for a human, and
 * returns where it stands. Replayed after a crash it continues from the session log, so a tool
 * call whose result is stored never runs again. A session leased by a live run elsewhere (a
 * worker being taken over) is waited for; a store connection failure is retried. Only the first
 * step (`mayCreate`) creates the session, and marks that it did (`created`) before the run stores
 * its input: a later step, or a replay of the first one (a takeover after a worker died in it),
 * that finds the session gone ends the run as `deleted` rather than starting it over from its input.
 * A lost lease is waited out and resumed from the log while this execution still drives the workflow
 * (`owns`: the lease went to a superseded execution, which stops at its next look); else it is thrown.
 */
export async function advanceRun(
  runner: Runner,
  run: RunInput,
  values: Record<string, unknown> | undefined,
  options: {
    readonly mayCreate: boolean;
    readonly created: SessionCreatedMark;
    readonly signal?: AbortSignal;
    /**
     * Whether this execution still drives the run's workflow (DBOS handed it to no other execution).
     * Asked before the lease is taken again: a superseded execution must not take it from the owner.
     */
    readonly owns?: () => Promise<boolean>;
  },
): Promise<RunStand> {
  const { signal } = options;
  const owns = options.owns ?? (async () => true);
  const key = { appName: run.appName, userId: run.userId, id: run.sessionId };
  for (let attempt = 1; ; attempt++) {
    // Also before the first: a worker starved between dequeuing the run and taking its lease may have
    // been superseded. Thrown: DBOS records no outcome of an execution it handed the run away from.
    if (!(await owns())) throw new Error(`The run of session "${run.sessionId}" was handed to another execution; this one stops.`);
    try {
      const existing = await runner.sessionStore.get(key);
      if (!existing) {
        if (!options.mayCreate || (await options.created.seen())) return deletedStand(run);
        await createEmpty(runner, key);
        await options.created.mark();
      }
      // A session this run created holds no event until the run stores its input (`start` refuses
      // a session that exists, so an empty one is this run's): run it; else resume what it stored.
      const result = existing?.events.length
        ? await resume(runner, run, values, signal)
        : await runner.run({ userId: run.userId, sessionId: run.sessionId, input: run.input, ...(signal ? { signal } : {}) }).result();
      if (result.error instanceof LeaseLostError) {
        // Another execution took the session. One DBOS handed the workflow to drives it now: this
        // (superseded) one throws, and DBOS records nothing of it. Taken by a superseded one (a
        // starved worker that woke, still waiting for the lease): the owner waits it out and
        // resumes from the log rather than failing the run.
        if (!(await owns())) throw result.error;
        await sleep(Math.max(10, runner.leaseMs / 3));
        continue;
      }
      if (result.status === 'failed' && result.error instanceof SessionStoreError && result.error.kind === 'connection' && attempt < 30) {
        await sleep(1_000);
        continue;
      }
      const session = await runner.sessionStore.get(key);
      return {
        status: result.status,
        offset: session?.version ?? 0,
        interrupts: result.interrupts,
        ...(result.output !== undefined ? { output: result.output } : {}),
        ...(result.status === 'failed' && result.error ? { error: { name: result.error.name, message: result.error.message } } : {}),
      };
    } catch (error) {
      if (error instanceof SessionBusyError) {
        await sleep(busyDelay(error, runner.leaseMs));
        // Superseded while it waited: it must not take the lease from the execution that drives the run now.
        if (!(await owns())) throw error;
        continue;
      }
      if (error instanceof SessionStoreError && error.kind === 'connection' && attempt < 30) {
        await sleep(1_000);
        continue;
      }
      throw error;
    }
  }
}

/** Creates the run's session with no event (one an earlier execution created is kept). */
async function createEmpty(runner: Runner, key: SessionKey): Promise<void> {
  try {
    await runner.sessionStore.create(key);
  } catch (error) {
    if (!(error instanceof SessionExistsError)) throw error;
  }
}

/** The run's end when its session is gone: nothing is run again. */
function deletedStand(run: RunInput): RunStand {
  const error = DbosError.sessionDeleted(run);
  return { status: 'deleted', offset: 0, interrupts: [], error: { name: error.name, message: error.message } };
}

/** Resumes with the answers; answers already stored (a replayed step) are not given twice. */
async function resume(runner: Runner, run: RunInput, values: Record<string, unknown> | undefined, signal: AbortSignal | undefined) {
  const options = { userId: run.userId, sessionId: run.sessionId, ...(signal ? { signal } : {}) };
  if (!values) return runner.resume(options).result();
  try {
    return await runner.resume({ ...options, values }).result();
  } catch (error) {
    if (!(error instanceof ResumeError && error.kind === 'unknown_interrupt')) throw error;
    return runner.resume(options).result(); // the answers were stored before a crash: continue without them
  }
}

/** How long until a busy session's lease may be free: its expiry when known, else a third of a lease. */
function busyDelay(error: SessionBusyError, leaseMs: number): number {
  const expiresAt = (error as { expiresAt?: unknown }).expiresAt;
  return typeof expiresAt === 'number' ? Math.min(leaseMs, Math.max(0, expiresAt - Date.now()) + 10) : Math.max(10, leaseMs / 3);
}
