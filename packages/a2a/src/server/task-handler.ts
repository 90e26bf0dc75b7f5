import { randomUUID } from 'node:crypto';
import type {
  AgentCard,
  CancelTaskRequest,
  ListTaskPushNotificationConfigsResponse,
  ListTasksResponse,
  Message,
  SendMessageRequest,
  StreamResponse,
  SubscribeToTaskRequest,
  Task,
  TaskPushNotificationConfig,
} from '@a2a-js/sdk';
import type { A2ARequestHandler } from '@a2a-js/sdk/server';
import { type AgentEvent, ConcurrentUpdateError, ResumeError, type Run, type Runner, type RunResult, type Session } from '@replan/core';
import { agentMessage, artifactResponse, isTerminal, STATE, statusResponse, type TaskIds, taskResponse, textPart } from './a2a-shapes.js';
import { answerMedia } from './answer-files.js';
import type { A2aServerSdk } from './load-server-sdk.js';
import { answerValues, contentOf, taskInput } from './message-input.js';
import {
  A2A_META,
  answerArtifact,
  endedText,
  CONTEXT_KEY,
  foldTaskLog,
  interruptMessage,
  planArtifact,
  planOf,
  stateOf,
  type TaskLog,
  taskOf,
} from './task-log.js';

/** What the handler serves, and as whom. */
export interface TaskServices {
  readonly runner: Runner;
  readonly userId: string;
  readonly maxInputChars: number;
  readonly card: () => AgentCard;
  readonly errors: A2aServerSdk['errors'];
}

/** A run of a task in this process; `canceling` once `tasks/cancel` aborted it. */
interface LiveTask {
  readonly run: Run;
  readonly ids: TaskIds;
  canceling: boolean;
}

/** Task and context ids this server hands out and accepts: anything else is no task of ours. */
const ID = /^[A-Za-z0-9_-]{1,128}$/;

/** A step's name in a status message: its id (graph plans), its number (linear). */
const stepLabel = (meta: AgentEvent['meta']): string =>
  typeof meta?.stepId === 'string' ? meta.stepId : typeof meta?.stepNumber === 'number' ? String(meta.stepNumber) : '';

/**
 * The A2A request handler over a runner: a task is a session (task id = session id), its state and
 * artifacts read from the session's log, so that `tasks/get` and `tasks/resubscribe` work in a process
 * that did not start the run (after a restart). Runs live in `live` only while they run here.
 */
export class ReplanTaskHandler implements A2ARequestHandler {
  private readonly live = new Map<string, LiveTask>();
  /** Tasks being started or answered right now: a second message on one is refused, not run twice. */
  private readonly claiming = new Set<string>();

  constructor(private readonly services: TaskServices) {}

  async getAgentCard(): Promise<AgentCard> {
    return this.services.card();
  }

  async getAuthenticatedExtendedAgentCard(): Promise<AgentCard> {
    throw new this.services.errors.ExtendedAgentCardNotConfiguredError(
      'This agent has no extended card: read /.well-known/agent-card.json.',
    );
  }

  async sendMessage(params: SendMessageRequest): Promise<Message | Task> {
    const live = await this.start(params);
    if (params.configuration?.returnImmediately) return this.taskNow(live.ids.taskId);
    const result = await live.run.result();
    return this.taskAfter(live, result);
  }

  async *sendMessageStream(params: SendMessageRequest): AsyncGenerator<StreamResponse, void, undefined> {
    yield* this.follow(await this.start(params));
  }

  async getTask(params: { id: string }): Promise<Task> {
    return this.taskNow(params.id);
  }

  async listTasks(): Promise<ListTasksResponse> {
    throw new this.services.errors.UnsupportedOperationError('Listing tasks is not supported: keep the task ids you were given.');
  }

  async cancelTask(params: CancelTaskRequest): Promise<Task> {
    const live = this.live.get(params.id);
    if (live) {
      live.canceling = true;
      live.run.abort(new Error('Canceled by tasks/cancel.'));
      await live.run.result().catch(() => undefined);
    }
    const session = await this.session(params.id);
    const log = foldTaskLog(session);
    const state = stateOf(log);
    if (isTerminal(state)) {
      if (live) return taskOf(log, state);
      throw new this.services.errors.TaskNotCancelableError(`Task ${params.id} has already ended: there is nothing to cancel.`);
    }
    // Stored, so that the task reads as canceled after a restart too; the session itself stays resumable.
    const last = session.events.at(-1);
    const marker: AgentEvent = {
      id: randomUUID(),
      invocationId: last?.invocationId ?? randomUUID(),
      author: 'user',
      path: 'user',
      timestamp: Date.now(),
      meta: { [A2A_META]: 'canceled' },
    };
    await this.services.runner.sessionStore.appendEvents(this.key(params.id), [marker], { expectedVersion: session.version });
    return taskOf(foldTaskLog({ ...session, events: [...session.events, marker] }), STATE.canceled);
  }

  async *resubscribe(params: SubscribeToTaskRequest): AsyncGenerator<StreamResponse, void, undefined> {
    let live = this.live.get(params.id);
    if (!live) {
      const log = foldTaskLog(await this.session(params.id));
      const state = stateOf(log);
      // Ended or waiting for an answer: the task as the log has it.
      if (state !== STATE.working) {
        yield taskResponse(taskOf(log, state));
        return;
      }
      // A run that stopped without an end (the server restarted, or shut down mid-run): continue it.
      live = await this.claimed(
        params.id,
        () => this.services.runner.resume({ userId: this.services.userId, sessionId: params.id }),
        log.ids,
      );
    }
    yield* this.follow(live);
  }

  async createTaskPushNotificationConfig(): Promise<TaskPushNotificationConfig> {
    throw this.noPush();
  }
  async getTaskPushNotificationConfig(): Promise<TaskPushNotificationConfig> {
    throw this.noPush();
  }
  async listTaskPushNotificationConfigs(): Promise<ListTaskPushNotificationConfigsResponse> {
    throw this.noPush();
  }
  async deleteTaskPushNotificationConfig(): Promise<void> {
    throw this.noPush();
  }

  /** Aborts the runs of this process (server shutdown): they stay resumable, and `tasks/resubscribe` continues them. */
  async close(): Promise<void> {
    const runs = [...this.live.values()].map((live) => live.run);
    for (const run of runs) run.abort(new Error('The A2A server closed.'));
    await Promise.allSettled(runs.map((run) => run.result()));
  }

  private noPush() {
    return new this.services.errors.PushNotificationNotSupportedError('Push notifications are not supported: stream, or resubscribe.');
  }

  private key(id: string) {
    return { appName: this.services.runner.appName, userId: this.services.userId, id };
  }

  private async session(id: string): Promise<Session> {
    const session = ID.test(id) ? await this.services.runner.sessionStore.get(this.key(id)) : undefined;
    if (!session) throw new this.services.errors.TaskNotFoundError(`There is no task "${id}" here: use the task id this server returned.`);
    return session;
  }

  /** A new task for a message without `taskId`; the answer to an `input-required` task for one with it. */
  private start(params: SendMessageRequest): Promise<LiveTask> {
    const { errors, runner, userId, maxInputChars } = this.services;
    const message = params.message;
    if (!message) throw new errors.RequestMalformedError('Pass "message": the task for the agent, or the answer to its question.');
    const content = contentOf(message);
    if (message.taskId) return this.answer(message.taskId, content);
    const contextId = message.contextId || randomUUID();
    if (!ID.test(contextId)) throw new errors.RequestMalformedError('"contextId" must be 1-128 letters, digits, "_" or "-".');
    const parsed = taskInput(content, maxInputChars);
    if ('error' in parsed) throw new errors.RequestMalformedError(parsed.error);
    const taskId = randomUUID();
    return this.claimed(taskId, () => runner.run({ userId, sessionId: taskId, input: parsed.input, state: { [CONTEXT_KEY]: contextId } }), {
      taskId,
      contextId,
    });
  }

  private async answer(taskId: string, content: ReturnType<typeof contentOf>): Promise<LiveTask> {
    const { errors, runner, userId } = this.services;
    if (this.live.has(taskId) || this.claiming.has(taskId))
      throw new errors.UnsupportedOperationError(
        `Task ${taskId} is working: it takes a message only when it asks for input (resubscribe to follow it).`,
      );
    const log = foldTaskLog(await this.session(taskId));
    const state = stateOf(log);
    if (isTerminal(state))
      throw new errors.UnsupportedOperationError(
        `Task ${taskId} has ended: send a new message without "taskId" (with the same "contextId" to keep it with its conversation).`,
      );
    if (state !== STATE.inputRequired)
      throw new errors.UnsupportedOperationError(`Task ${taskId} is not waiting for input: resubscribe to follow it.`);
    const values = answerValues(log.openInterrupts, content);
    if (typeof values === 'string') throw new errors.RequestMalformedError(values);
    return this.claimed(taskId, () => runner.resume({ userId, sessionId: taskId, values }), log.ids);
  }

  /** Starts a run for a task no other request of this process is starting, and waits until it has stored its first event. */
  private async claimed(taskId: string, start: () => Run, ids: TaskIds): Promise<LiveTask> {
    const { errors } = this.services;
    if (this.claiming.has(taskId) || this.live.has(taskId))
      throw new errors.UnsupportedOperationError(
        `Task ${taskId} is being answered or continued by another request: resubscribe to follow it.`,
      );
    this.claiming.add(taskId);
    try {
      const run = start();
      const events = run[Symbol.asyncIterator]();
      try {
        await events.next();
      } catch (error) {
        throw this.startError(taskId, error);
      } finally {
        await events.return?.();
      }
      const live: LiveTask = { run, ids, canceling: false };
      this.live.set(taskId, live);
      const forget = () => {
        if (this.live.get(taskId) === live) this.live.delete(taskId);
      };
      run.result().then(forget, forget);
      return live;
    } finally {
      this.claiming.delete(taskId);
    }
  }

  /** Why a run could not start, as the A2A error a client can act on. */
  private startError(taskId: string, error: unknown): unknown {
    const { errors } = this.services;
    if (error instanceof ResumeError && error.kind === 'invalid_value') return new errors.RequestMalformedError(error.message);
    // Another process (or request) answered first: each question is answered once.
    if ((error instanceof ResumeError && error.kind === 'unknown_interrupt') || error instanceof ConcurrentUpdateError)
      return new errors.UnsupportedOperationError(`Task ${taskId} was answered or continued by another request: resubscribe to follow it.`);
    return error;
  }

  /** The task as the log has it; `working` while its run is live here. */
  private async taskNow(id: string): Promise<Task> {
    const log = foldTaskLog(await this.session(id));
    const state = stateOf(log);
    return taskOf(log, this.live.has(id) && !isTerminal(state) ? STATE.working : state, await this.answerMediaOf(log));
  }

  /** The images and files of a completed task's answer, their bytes read from the store. */
  private answerMediaOf(log: TaskLog) {
    if (log.end?.status !== 'completed') return Promise.resolve([]);
    return answerMedia(log.answer, this.services.runner.sessionStore, this.key(log.ids.taskId));
  }

  /** The task once its run here ended, in the state the run ended with. */
  private async taskAfter(live: LiveTask, result: RunResult): Promise<Task> {
    const log = foldTaskLog(await this.session(live.ids.taskId));
    return taskOf(log, this.endState(live, result), await this.answerMediaOf(log));
  }

  private endState(live: LiveTask, result: RunResult) {
    switch (result.status) {
      case 'completed':
        return STATE.completed;
      case 'interrupted':
        return STATE.inputRequired;
      case 'aborted':
        return live.canceling ? STATE.canceled : STATE.working;
      case 'blocked':
        // A guardrail declined the task (input) or withheld its answer (output): A2A's "rejected", not a failure.
        return STATE.rejected;
      default:
        return STATE.failed;
    }
  }

  /** The task as stored, then the run's updates live: plan artifacts, a status per finished step, the end. */
  private async *follow(live: LiveTask): AsyncGenerator<StreamResponse, void, undefined> {
    const { ids } = live;
    const log = foldTaskLog(await this.session(ids.taskId));
    yield taskResponse(taskOf(log, STATE.working));
    // Leaving this loop (the client went away) stops listening only: the run goes on and stores its events.
    for await (const event of live.run) {
      if (event.partial) continue;
      const plan = planOf(event);
      if (plan !== undefined) yield artifactResponse(ids, planArtifact(plan));
      if (event.meta?.planExecute === 'step-result')
        yield statusResponse(ids, STATE.working, agentMessage(ids, [textPart(`Step ${stepLabel(event.meta)} done.`)]));
    }
    const result = await live.run.result();
    const state = this.endState(live, result);
    if (state === STATE.completed) {
      const media = await this.answerMediaOf(foldTaskLog(await this.session(ids.taskId)));
      yield artifactResponse(ids, answerArtifact(result.output, result.structured, media));
    }
    const message =
      state === STATE.inputRequired
        ? interruptMessage(ids, result.interrupts)
        : state === STATE.failed || state === STATE.rejected
          ? agentMessage(ids, [
              textPart(
                endedText(
                  result.status,
                  result.guardrail,
                  result.error ? `The run ended ${result.status}: ${result.error.message}.` : undefined,
                ),
              ),
            ])
          : state === STATE.working
            ? agentMessage(ids, [textPart('The server stopped this run; resubscribe to continue it.')])
            : undefined;
    yield statusResponse(ids, state, message);
  }
}
