import type pg from 'pg';
import type { Runner } from '@replan/core';
import { advanceRun, type RunInput, type RunStand } from './advance-run.js';
import { dbosCreatedMark } from './created-marker.js';
import type { Dbos } from './load-dbos-sdk.js';
import { ANSWER_TOPIC, RUN_WORKFLOW, STAND_EVENT, workflowIdOf } from './run-ids.js';
import type { RunningSteps } from './running-steps.js';
import { schemaTable } from './sql-names.js';

/** How long one `DBOS.recv` waits for an answer before waiting again (a run may wait for days). */
const ANSWER_WAIT_S = 24 * 3600;

export interface RunWorkflowContext {
  readonly dbos: Dbos;
  readonly runners: ReadonlyMap<string, Runner>;
  /** The DBOS system database, to see a cancel while a step runs. */
  readonly pool: pg.Pool;
  readonly schema: string;
  readonly checkEveryMs: number;
  /** Where a step says it runs, so `runs.delete` can wait for it to stop. */
  readonly steps: RunningSteps;
  /** This process's DBOS executor id. */
  readonly executorId: string;
  /** The SDK's test for a stream read that timed out (`Error.isStreamTimeoutError`). */
  readonly isStreamTimeout: (error: unknown) => boolean;
}

/**
 * Registers the run workflow: step, publish where the run stands, and while it waits for a human,
 * `DBOS.recv` the answer and step again. Each step returns only where the run stands (its log
 * offset, status, open interrupts): the session log is the checkpoint.
 */
export function registerRunWorkflow(ctx: RunWorkflowContext): (run: RunInput) => Promise<RunStand> {
  const { dbos } = ctx;
  const latest = new Map<string, number>();
  let executions = 0;
  const workflow = async (run: RunInput): Promise<RunStand> => {
    const runner = ctx.runners.get(run.appName);
    // Only queues of apps with a runner are listened to, so a run gets here only where its runner is.
    if (!runner) throw new Error(`No runner for app "${run.appName}" in this worker.`);
    const id = workflowIdOf(run);
    // A starved worker's run can be handed back to its queue and dequeued by this same process while
    // the old execution still runs: only the latest one here may still drive it.
    const execution = ++executions;
    latest.set(id, execution);
    const owns = async () => latest.get(id) === execution && (await retried(() => drivenHere(ctx, id)));
    let values: Record<string, unknown> | undefined;
    const created = dbosCreatedMark(dbos, id, ctx.isStreamTimeout);
    try {
      // Only the first step creates the session: one found gone later was deleted, and is not recreated.
      for (let step = 0; ; step++) {
        const mayCreate = step === 0;
        const stand = await dbos.runStep(
          () => withCancel(ctx, run, (signal) => advanceRun(runner, run, values, { mayCreate, created, signal, owns })),
          { name: 'replan.advance' },
        );
        await dbos.setEvent(STAND_EVENT, stand);
        if (stand.status !== 'interrupted') return stand;
        values = undefined;
        while (!values) values = (await dbos.recv<Record<string, unknown>>(ANSWER_TOPIC, ANSWER_WAIT_S)) ?? undefined;
        // Received: no process's `result` reports the answered interrupts as open any more.
        await dbos.setEvent(STAND_EVENT, { ...stand, status: 'running', interrupts: [] });
      }
    } finally {
      if (latest.get(id) === execution) latest.delete(id);
    }
  };
  return dbos.registerWorkflow(workflow, { name: RUN_WORKFLOW });
}

/**
 * Whether this process drives the workflow: DBOS has it running (PENDING) under this executor. A
 * takeover hands it back to its queue (ENQUEUED) and the worker that dequeues it writes its own id.
 */
async function drivenHere(ctx: RunWorkflowContext, id: string): Promise<boolean> {
  const table = schemaTable(ctx.schema, 'workflow_status');
  const { rows } = await ctx.pool.query<{ status: string; executor_id: string | null }>(
    `SELECT status, executor_id FROM ${table} WHERE workflow_uuid = $1`,
    [id],
  );
  return rows[0]?.status === 'PENDING' && rows[0].executor_id === ctx.executorId;
}

/**
 * Runs a step with a signal that aborts when the workflow is cancelled (`runs.cancel`, `runs.delete`),
 * registered in `RunningSteps` while it runs. Registered before its first look at the status: a
 * `delete` that cancelled before that look is seen there (the step does nothing), one that
 * cancelled after it finds the step registered and waits for it to stop.
 */
async function withCancel<T>(ctx: RunWorkflowContext, run: RunInput, body: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const abort = new AbortController();
  const id = workflowIdOf(run);
  const table = schemaTable(ctx.schema, 'workflow_status');
  const cancelled = async () =>
    (await ctx.pool.query<{ status: string }>(`SELECT status FROM ${table} WHERE workflow_uuid = $1`, [id])).rows[0]?.status ===
    'CANCELLED';
  await retried(() => ctx.steps.beat(id, ctx.executorId));
  try {
    if (await retried(cancelled)) throw new Error(`The run of session "${run.sessionId}" was cancelled before its step began.`);
    const timer = setInterval(() => {
      Promise.all([cancelled(), ctx.steps.beat(id, ctx.executorId)])
        .then(([yes]) => {
          if (yes) abort.abort(new Error(`The run of session "${run.sessionId}" was cancelled.`));
        })
        .catch(() => undefined); // a missed look is retried at the next tick
    }, ctx.checkEveryMs);
    try {
      return await body(abort.signal);
    } finally {
      clearInterval(timer);
    }
  } finally {
    // A row left behind (this statement failed) goes stale within leaseMs: `delete` waits no longer.
    await ctx.steps.leave(id, ctx.executorId).catch(() => undefined);
  }
}

/**
 * `look`, tried again (every second, 30 times) while the system database cannot be reached: a
 * step must not fail its run over a blip that DBOS's own bookkeeping would ride out.
 */
async function retried<T>(look: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await look();
    } catch (error) {
      if (attempt >= 30) throw error;
      await new Promise((r) => setTimeout(r, 1_000));
    }
  }
}
