import type { Task } from '@a2a-js/sdk';
import type { Client } from '@a2a-js/sdk/client';
import type { Agent, AgentEvent, Interrupt } from '@replan/core';
import { type InvocationContext, RunInterruptedSignal } from '@replan/core/agent-kit';
import { A2aError } from '../a2a-errors.js';
import { answerOf, dataOf, questionIdOf, REMOTE_STATE, stateName, textOf, userMessage } from './remote-task.js';

/** Child-session state keys: the remote task, the question asked last, the answers forwarded, the questions counted. */
const TASK_KEY = 'a2a:remoteTask';
const QUESTION_KEY = 'a2a:question';
const FORWARDED_KEY = 'a2a:forwarded';
const COUNT_KEY = 'a2a:questions';

interface RemoteRef {
  readonly taskId: string;
  readonly contextId: string;
}
interface AskedQuestion {
  readonly interruptId: string;
  /** The remote status message id of the question: it tells whether the remote still waits on it. */
  readonly questionId: string;
}

/**
 * A remote A2A agent as a replan agent, run by `agentTool` in a child session. Every fact that must
 * outlive a crash is stored in that session before it is relied on: the remote task id once the task
 * exists, the question when it becomes a local interrupt, the forward of each answer.
 */
export class RemoteA2aAgent implements Agent {
  constructor(
    readonly name: string,
    readonly description: string,
    private readonly url: string,
    private readonly connect: () => Promise<Client>,
  ) {}

  async *run(ctx: InvocationContext): AsyncGenerator<AgentEvent, void, undefined> {
    const client = await this.connected();
    const remote = ctx.state[TASK_KEY] as RemoteRef | undefined;
    let task: Task;
    if (remote === undefined) {
      task = await this.call(() => client.sendMessage(userMessage(inputOf(ctx.events), {}), { signal: ctx.signal }));
      yield ctx.event({ actions: { stateDelta: { [TASK_KEY]: { taskId: task.id, contextId: task.contextId } } } });
    } else task = yield* this.continueTask(ctx, client, remote);

    const state = task.status?.state;
    if (state === REMOTE_STATE.completed) {
      const { text, structured, media } = answerOf(task);
      yield ctx.event({
        // The remote answer's images and files go in the message: the agent tool hands them to the local model.
        message: { role: 'assistant', content: [{ type: 'text', text }, ...media] },
        actions: { final: { text, ...(structured === undefined ? {} : { structured }) } },
      });
      return;
    }
    if (state === REMOTE_STATE.inputRequired) yield* this.ask(ctx, task);
    throw A2aError.taskFailed(this.url, task.id, stateName(state), textOf(task.status?.message?.parts));
  }

  /**
   * After a resume: forwards the answer to the question asked last, unless it was forwarded already —
   * by the stored record, or, when the process died between sending and recording, because the remote
   * no longer asks that question. Then follows the task until it ends or asks again.
   */
  private async *continueTask(ctx: InvocationContext, client: Client, remote: RemoteRef): AsyncGenerator<AgentEvent, Task, undefined> {
    const question = ctx.state[QUESTION_KEY] as AskedQuestion | undefined;
    const forwarded = (ctx.state[FORWARDED_KEY] as string[] | undefined) ?? [];
    let task = await this.call(() => client.getTask({ tenant: '', id: remote.taskId }, { signal: ctx.signal }));
    const answers = ctx.session.events.flatMap((e) => Object.entries(e.actions?.resumeValues ?? {}));
    const answer = question && answers.find(([id]) => id === question.interruptId);
    if (question && answer && !forwarded.includes(question.interruptId)) {
      if (questionIdOf(task) === question.questionId) {
        const value = answer[1];
        try {
          task = await this.call(() =>
            client.sendMessage(userMessage(value, { taskId: remote.taskId, contextId: remote.contextId }), { signal: ctx.signal }),
          );
        } catch (error) {
          // Refused because another request delivered it meanwhile: the remote has moved on, which is all that counts.
          task = await this.call(() => client.getTask({ tenant: '', id: remote.taskId }, { signal: ctx.signal }));
          if (questionIdOf(task) === question.questionId) throw error;
        }
      }
      yield ctx.event({ actions: { stateDelta: { [FORWARDED_KEY]: [...forwarded, question.interruptId] } } });
    }
    if (task.status?.state === REMOTE_STATE.working || task.status?.state === 1) {
      for await (const _ of client.resubscribeTask({ tenant: '', id: remote.taskId }, { signal: ctx.signal })) {
        // Only the end matters: the task is read again below.
      }
      task = await this.call(() => client.getTask({ tenant: '', id: remote.taskId }, { signal: ctx.signal }));
    }
    return task;
  }

  /** The remote question as a local interrupt, stored with what identifies it; the run stops there. */
  private async *ask(ctx: InvocationContext, task: Task): AsyncGenerator<AgentEvent, never, undefined> {
    const count = ((ctx.state[COUNT_KEY] as number | undefined) ?? 0) + 1;
    const parts = task.status?.message?.parts;
    const data = dataOf(parts) as { interrupts?: { reason?: unknown }[] } | undefined;
    // A replan server says what it asks: an approval stays an approval here, so UIs show it as one.
    const reason = data?.interrupts?.length === 1 && data.interrupts[0]?.reason === 'approval' ? 'approval' : 'input';
    const interrupt: Interrupt = {
      id: `remote-input-${count}`,
      reason,
      payload: { agent: this.url, taskId: task.id, question: textOf(parts), ...(data === undefined ? {} : { data }) },
      path: ctx.path,
    };
    const asked: AskedQuestion = { interruptId: interrupt.id, questionId: questionIdOf(task) ?? '' };
    yield ctx.event({ actions: { stateDelta: { [QUESTION_KEY]: asked, [COUNT_KEY]: count }, interrupt } });
    throw new RunInterruptedSignal([interrupt]);
  }

  private async connected(): Promise<Client> {
    try {
      return await this.connect();
    } catch (error) {
      throw error instanceof A2aError
        ? error
        : A2aError.connection(this.url, `cannot read its agent card (${messageOf(error)}).`, { cause: error });
    }
  }

  /** A remote call whose task answer is a Task; a bare Message reply becomes a completed task with that text. */
  private async call(request: () => Promise<Task | import('@a2a-js/sdk').Message>): Promise<Task> {
    let reply: Awaited<ReturnType<typeof request>>;
    try {
      reply = await request();
    } catch (error) {
      throw A2aError.connection(this.url, messageOf(error), { cause: error });
    }
    if ('status' in reply) return reply;
    return {
      id: reply.taskId,
      contextId: reply.contextId,
      status: { state: REMOTE_STATE.completed as never, message: reply, timestamp: undefined },
      artifacts: [],
      history: [],
      metadata: undefined,
    };
  }
}

/** The child session's input: the text of its first user message. */
function inputOf(events: readonly AgentEvent[]): string {
  const first = events.find((e) => e.author === 'user' && e.message);
  return (first?.message?.content ?? []).map((b) => (b.type === 'text' ? b.text : '')).join('');
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));
