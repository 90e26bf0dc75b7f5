import { randomBytes, randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import pg from 'pg';
import { ConfigurationError, ResumeError, SessionExistsError, type AgentEvent, type Runner } from '@replan/core';
import type { RunInput, RunStand } from './advance-run.js';
import { DbosError, safeConnection } from './dbos-errors.js';
import type { AnswerInput, DbosRunsOptions, LaunchOptions, RunKeyInput, StartInput } from './dbos-runs-options.js';
import { ExecutorHeartbeats } from './executor-heartbeats.js';
import { loadDbosSdk, type Dbos } from './load-dbos-sdk.js';
import { ANSWER_TOPIC, queueNameOf, STAND_EVENT, workflowIdOf, type RunRequest } from './run-ids.js';
import { registerRunWorkflow } from './run-workflow.js';
import { beatAndSweep } from './beat-and-sweep.js';
import { RunningSteps } from './running-steps.js';

/** How a DBOS run stands when `result` resolves: ended, or stopped for a human (`interrupted`). */
export interface DbosRunResult extends RunStand {
  readonly sessionId: string;
}

/** DBOS workflow statuses after which nothing more happens. */
const FINAL = new Set(['SUCCESS', 'ERROR', 'CANCELLED', 'MAX_RECOVERY_ATTEMPTS_EXCEEDED']);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Launched {
  readonly dbos: Dbos;
  readonly pool: pg.Pool;
  readonly heartbeats: ExecutorHeartbeats | undefined;
  readonly steps: RunningSteps;
  readonly timers: NodeJS.Timeout[];
}

/**
 * Runs on DBOS Transact: each run is a durable DBOS workflow on a DBOS queue, driven by whichever
 * worker process dequeues it. Every process that calls `launch()` is a worker (unless `worker:
 * false`). A worker whose process died or went silent has its runs taken over by a live one.
 */
export class DbosRuns {
  private readonly runners: ReadonlyMap<string, Runner>;
  private readonly queue: string;
  private readonly concurrency: number;
  private readonly totalConcurrency: number | undefined;
  private readonly leaseMs: number;
  private readonly pollMs: number;
  private readonly pickupPollMs: number;
  private readonly onError: (error: Error) => void;
  /**
   * Interrupts answered through this object, keyed by run and stop (`answeredKey`): a `result`
   * that still sees them open waits on. Another session stopped on the same interrupt id is not.
   */
  private readonly answered = new Set<string>();
  private launched: Launched | undefined;
  private workflow: ((run: RunInput) => Promise<RunStand>) | undefined;

  constructor(options: DbosRunsOptions) {
    const list = Array.isArray(options?.runners)
      ? (options.runners as readonly Runner[])
      : options?.runners
        ? [options.runners as Runner]
        : [];
    if (!list.length) throw new ConfigurationError('dbosRuns needs at least one runner: dbosRuns({ runners: [runner] }).');
    this.runners = new Map(list.map((r) => [r.appName, r]));
    if (this.runners.size !== list.length) throw new ConfigurationError('dbosRuns runners must have distinct appNames.');
    this.queue = options.queue ?? 'replan';
    this.concurrency = positive('concurrency', options.concurrency ?? 4);
    this.totalConcurrency = options.totalConcurrency === undefined ? undefined : positive('totalConcurrency', options.totalConcurrency);
    this.leaseMs = positive('leaseMs', options.leaseMs ?? Math.max(...list.map((r) => r.leaseMs)));
    this.pollMs = positive('pollMs', options.pollMs ?? 100);
    this.pickupPollMs = positive('pickupPollMs', options.pickupPollMs ?? 15);
    this.onError = options.onError ?? ((error) => console.warn(`replan dbos: ${error.message}`));
  }

  /**
   * Configures and launches DBOS in this process (`DBOS.setConfig`, `DBOS.launch`); as a worker,
   * registers the apps' queues with its limits and starts its heartbeat and the takeover sweep.
   * DBOS unreachable: a `DbosError` of kind `unreachable` naming the connection.
   */
  async launch(options: LaunchOptions): Promise<void> {
    if (this.launched) throw new ConfigurationError('dbosRuns was already launched in this process.');
    if (!options?.systemDatabaseUrl)
      throw new ConfigurationError('launch needs systemDatabaseUrl: the PostgreSQL database DBOS keeps its workflows in.');
    const { DBOS, Error: DbosErrors } = await loadDbosSdk();
    const worker = options.worker ?? true;
    const executorId = options.executorId ?? `${hostname()}-${process.pid}-${randomBytes(3).toString('hex')}`;
    const schema = typeof options.dbosConfig?.systemDatabaseSchemaName === 'string' ? options.dbosConfig.systemDatabaseSchemaName : 'dbos';
    const pool = new pg.Pool({ connectionString: options.systemDatabaseUrl, max: 3 });
    pool.on('error', (error) => this.onError(error));
    const queues = [...this.runners.keys()].map((app) => queueNameOf(this.queue, app));
    const steps = new RunningSteps(pool, schema);
    this.workflow ??= registerRunWorkflow({
      dbos: DBOS,
      runners: this.runners,
      pool,
      schema,
      steps,
      executorId,
      checkEveryMs: Math.min(1_000, Math.max(50, this.leaseMs / 3)),
      isStreamTimeout: DbosErrors.isStreamTimeoutError,
    });
    DBOS.setConfig({
      name: options.name ?? 'replan',
      logLevel: 'warn',
      ...options.dbosConfig,
      systemDatabaseUrl: options.systemDatabaseUrl,
      applicationVersion: options.applicationVersion ?? 'replan-1',
      executorID: executorId,
      listenQueues: worker ? queues : [],
    });
    try {
      await DBOS.launch();
    } catch (cause) {
      await pool.end().catch(() => undefined);
      throw DbosError.unreachable(safeConnection(options.systemDatabaseUrl), cause);
    }
    const heartbeats = worker ? new ExecutorHeartbeats(pool, schema, executorId) : undefined;
    const timers: NodeJS.Timeout[] = [];
    this.launched = { dbos: DBOS, pool, heartbeats, steps, timers };
    await steps.migrate(); // here too in a producer: its `delete` reads the table
    if (heartbeats)
      timers.push(
        ...(await beatAndSweep({ dbos: DBOS, pool, schema, heartbeats, executorId, queues, leaseMs: this.leaseMs, onError: this.onError })),
      );
    // DBOS keeps one configuration per queue in its database, shared by every process: the last
    // worker to register sets it. A producer registers nothing (enqueueing needs no registration):
    // even `onConflict: 'never_update'` would insert its own limits when it launches first, and a
    // worker launched next dispatches with them until DBOS rereads the queue (up to a second).
    if (worker)
      for (const name of queues)
        await DBOS.registerQueue(name, {
          workerConcurrency: this.concurrency,
          ...(this.totalConcurrency ? { globalConcurrency: this.totalConcurrency } : {}),
          minPollingIntervalMs: this.pickupPollMs,
        });
  }

  /** Stops this process's DBOS: runs it drives stay pending and are taken over by another worker. */
  async shutdown(): Promise<void> {
    const launched = this.launched;
    if (!launched) return;
    for (const t of launched.timers) clearInterval(t);
    await launched.dbos.shutdown();
    await launched.heartbeats?.leave().catch(() => undefined);
    await launched.pool.end();
    this.launched = undefined;
  }

  /**
   * Enqueues a new run: the session is created with the input by the worker that picks it up. A
   * session (or run) that exists already is refused with `SessionExistsError`, nothing enqueued; of
   * two concurrent starts of one session (from any processes), one enqueues and the other is refused.
   */
  async start(input: StartInput): Promise<{ readonly sessionId: string }> {
    const { dbos } = this.ready('start');
    const runner = this.runnerOf(input.appName);
    const run: RunInput = {
      appName: runner.appName,
      userId: input.userId,
      sessionId: input.sessionId ?? randomUUID(),
      input: input.input,
      startId: randomUUID(),
    };
    const workflowID = workflowIdOf(run);
    const exists =
      (await runner.sessionStore.get({ appName: run.appName, userId: run.userId, id: run.sessionId })) !== undefined ||
      (await dbos.getWorkflowStatus(workflowID)) !== null;
    if (exists) throw new SessionExistsError(run.sessionId);
    await dbos.startWorkflow(this.workflow!, { workflowID, queueName: queueNameOf(this.queue, run.appName) })(run);
    // DBOS starts a workflow id once and hands a later start the existing one: a start that raced
    // another past the check above finds the winner's startId stored as the input, and is refused.
    const [stored] = await dbos.listWorkflows({ workflowIDs: [workflowID], loadInput: true });
    const storedStartId = (stored?.input?.[0] as Partial<RunInput> | undefined)?.startId;
    if (storedStartId !== run.startId) throw new SessionExistsError(run.sessionId);
    return { sessionId: run.sessionId };
  }

  /**
   * Answers the run's open interrupts (`DBOS.send` to the workflow waiting in `DBOS.recv`). An id
   * that is not open: a `ResumeError` of kind `unknown_interrupt`; a run that ended: a `DbosError` of kind `finished`.
   */
  async answer(input: AnswerInput): Promise<void> {
    const { dbos } = this.ready('answer');
    const key = this.keyOf(input);
    const id = workflowIdOf(key);
    const status = await dbos.getWorkflowStatus(id);
    if (!status) throw DbosError.notFound(key);
    if (FINAL.has(status.status)) throw DbosError.finished(key, status.status);
    const stand = await dbos.getEvent<RunStand>(id, STAND_EVENT, 0);
    const open = stand?.status === 'interrupted' ? stand.interrupts.map((i) => i.id) : [];
    const ids = Object.keys(input.values ?? {});
    if (!ids.length) throw new ConfigurationError('answer needs values: { [interruptId]: answer }.');
    for (const interruptId of ids) if (!open.includes(interruptId)) throw ResumeError.unknownInterrupt(interruptId, open);
    await dbos.send(id, input.values, ANSWER_TOPIC, `${id}@${stand!.offset}:${ids.sort().join(',')}`);
    for (const interruptId of ids) this.answered.add(answeredKey(id, stand!.offset, interruptId));
  }

  /** Resolves when the run ends, or stops for a human (status `interrupted`, with its open interrupts). */
  async result(input: RunKeyInput): Promise<DbosRunResult> {
    const { dbos } = this.ready('result');
    const key = this.keyOf(input);
    const id = workflowIdOf(key);
    for (;;) {
      const status = await dbos.getWorkflowStatus(id);
      if (!status) throw DbosError.notFound(key);
      if (status.status === 'SUCCESS') return { ...(status.output as RunStand), sessionId: key.sessionId };
      if (FINAL.has(status.status)) {
        const stand = await dbos.getEvent<RunStand>(id, STAND_EVENT, 0);
        const recorded = status.error as { name?: string; message?: string } | undefined;
        // DBOS records no error for some ends (more recovery attempts than allowed, say): a failed
        // run still says why, in DBOS's own words.
        const error =
          recorded || status.status === 'CANCELLED'
            ? recorded
            : { name: 'DbosWorkflowError', message: `DBOS ended the run's workflow with status ${status.status} and recorded no error.` };
        return {
          status: status.status === 'CANCELLED' ? 'cancelled' : 'failed',
          offset: stand?.offset ?? 0,
          interrupts: [],
          ...(error ? { error: { name: error.name ?? 'Error', message: error.message ?? String(error) } } : {}),
          sessionId: key.sessionId,
        };
      }
      const stand = await dbos.getEvent<RunStand>(id, STAND_EVENT, 0);
      if (stand?.status === 'interrupted' && !stand.interrupts.some((i) => this.answered.has(answeredKey(id, stand.offset, i.id))))
        return { ...stand, sessionId: key.sessionId };
      await sleep(this.pollMs);
    }
  }

  /**
   * The session's stored events from `after` (default: the start), live: new ones as they are
   * stored, until the run ends or stops for a human.
   */
  async *events(input: RunKeyInput & { readonly after?: number }): AsyncGenerator<AgentEvent> {
    const { dbos } = this.ready('events');
    const key = this.keyOf(input);
    const runner = this.runnerOf(key.appName);
    let seen = input.after ?? 0;
    for (;;) {
      const status = await dbos.getWorkflowStatus(workflowIdOf(key));
      if (!status) throw DbosError.notFound(key);
      const stand = await dbos.getEvent<RunStand>(workflowIdOf(key), STAND_EVENT, 0);
      const session = await runner.sessionStore.get({ appName: key.appName, userId: key.userId, id: key.sessionId });
      const events = session?.events ?? [];
      while (seen < events.length) yield events[seen++]!;
      const stopped = FINAL.has(status.status) || (stand?.status === 'interrupted' && stand.offset <= seen);
      if (stopped) return;
      await sleep(this.pollMs);
    }
  }

  /** Cancels the run: DBOS marks it cancelled and the step in flight is aborted (what it stored stays). */
  async cancel(input: RunKeyInput): Promise<void> {
    const { dbos } = this.ready('cancel');
    const key = this.keyOf(input);
    if (!(await dbos.getWorkflowStatus(workflowIdOf(key)))) throw DbosError.notFound(key);
    await dbos.cancelWorkflow(workflowIdOf(key));
  }

  /**
   * Deletes the session and cancels its run: the workflow is cancelled first, then a step in flight
   * (in any worker) is waited for until it saw the cancel and stopped — its run aborted, a tool that
   * ignores its signal cut off — or its worker went silent for `leaseMs`; only then is the session
   * deleted, so nothing writes to it or recreates it after `delete` resolved. A later `answer` is
   * refused, `result` says `cancelled`. Neither a run nor a session under this key: a `DbosError` of kind `not_found`.
   */
  async delete(input: RunKeyInput): Promise<void> {
    const { dbos, steps } = this.ready('delete');
    const key = this.keyOf(input);
    const id = workflowIdOf(key);
    const runner = this.runnerOf(key.appName);
    const storeKey = { appName: key.appName, userId: key.userId, id: key.sessionId };
    const status = await dbos.getWorkflowStatus(id);
    if (!status && !(await runner.sessionStore.get(storeKey))) throw DbosError.notFound(key);
    if (status && !FINAL.has(status.status)) await dbos.cancelWorkflow(id);
    // Also after an earlier `cancel`: that did not wait for the step it aborted.
    if (status) while (await steps.running(id, this.leaseMs)) await sleep(Math.min(this.pollMs, 50));
    await runner.sessionStore.delete(storeKey);
  }

  private ready(method: string): Launched {
    if (!this.launched) throw new ConfigurationError(`Call launch() before ${method}(): DBOS is not running in this process yet.`);
    return this.launched;
  }

  private runnerOf(appName: string | undefined): Runner {
    if (appName === undefined) {
      if (this.runners.size === 1) return [...this.runners.values()][0]!;
      throw new ConfigurationError(`Name the app: this dbosRuns serves ${[...this.runners.keys()].join(', ')}.`);
    }
    const runner = this.runners.get(appName);
    if (!runner)
      throw new ConfigurationError(`dbosRuns has no runner for app "${appName}" (it serves ${[...this.runners.keys()].join(', ')}).`);
    return runner;
  }

  private keyOf(input: RunKeyInput): RunRequest {
    return { appName: this.runnerOf(input.appName).appName, userId: input.userId, sessionId: input.sessionId };
  }
}

/** Runs on DBOS: see `DbosRuns`. Call `launch()` in every process, then `start`, `answer`, `result`, `events`, `cancel`, `delete`. */
export function dbosRuns(options: DbosRunsOptions): DbosRuns {
  return new DbosRuns(options);
}

/** An answered interrupt: of this run (workflow id), at this stop (log offset), by its id. */
function answeredKey(workflowId: string, offset: number, interruptId: string): string {
  return `${workflowId}@${offset}:${interruptId}`;
}

function positive(name: string, value: number): number {
  if (!Number.isInteger(value) || value < 1)
    throw new ConfigurationError(`dbosRuns ${name} must be a positive integer, got ${String(value)}.`);
  return value;
}
