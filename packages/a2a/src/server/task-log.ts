import type { Artifact, Message, Task, TaskState } from '@a2a-js/sdk';
import type { AgentEvent, GuardrailTrip, Interrupt, MediaBlock, Message as ReplanMessage, RunStatus, Session } from '@replan/core';
import { guardrailBlockText, withheldAnswers } from '@replan/core/agent-kit';
import { filePart } from './answer-files.js';
import { agentMessage, artifact, dataPart, isTerminal, STATE, type TaskIds, textPart } from './a2a-shapes.js';

/** The session state key that holds the task's context id (a task is a session; its context groups a user's tasks). */
export const CONTEXT_KEY = 'a2a:contextId';
/** The meta key of the event `tasks/cancel` stores, so that a canceled task reads as canceled after a restart. */
export const A2A_META = 'a2a';

/** What a task's session log says, folded: the latest plan, how the run ended, the questions still open. */
export interface TaskLog {
  readonly ids: TaskIds;
  readonly plan: unknown;
  readonly end: { readonly status: RunStatus; readonly output?: string; readonly guardrail?: GuardrailTrip } | undefined;
  readonly structured: unknown;
  /** The run's answer message (its last top-level final), whose images and files the answer artifact carries. */
  readonly answer: ReplanMessage | undefined;
  readonly openInterrupts: readonly Interrupt[];
  readonly canceled: boolean;
  /** The error of the last stored event, when the run stopped on one. */
  readonly error: string | undefined;
}

/** The plan a plan–execute event stored (the state key `Plan`, or `<name>:Plan`), if it is a plan event. */
export function planOf(event: AgentEvent): unknown {
  const tag = event.meta?.planExecute;
  if (tag !== 'plan' && tag !== 'revised-plan') return undefined;
  const delta = event.actions?.stateDelta ?? {};
  const key = Object.keys(delta).find((k) => k === 'Plan' || k.endsWith(':Plan'));
  return key === undefined ? undefined : delta[key];
}

export function foldTaskLog(session: Session): TaskLog {
  let plan: unknown;
  let end: TaskLog['end'];
  let structured: unknown;
  let answer: ReplanMessage | undefined;
  let canceled = false;
  let error: string | undefined;
  const open = new Map<string, Interrupt>();
  // An answer an output guardrail blocked stays in the log for audit; the task never shows it.
  const withheld = withheldAnswers(session.events);
  for (const event of session.events) {
    const actions = event.actions;
    plan = planOf(event) ?? plan;
    if (actions?.interrupt) open.set(actions.interrupt.id, actions.interrupt);
    for (const id of Object.keys(actions?.resumeValues ?? {})) open.delete(id);
    if (actions?.invocationEnd) end = actions.invocationEnd;
    if (actions?.final && !event.path.includes('/') && !withheld.has(event.id)) {
      structured = actions.final.structured;
      answer = event.message;
    }
    if (event.meta?.[A2A_META] === 'canceled') canceled = true;
    error = event.error ? `${event.error.name}: ${event.error.message}` : undefined;
  }
  const contextId = session.state[CONTEXT_KEY];
  return {
    ids: { taskId: session.id, contextId: typeof contextId === 'string' ? contextId : session.id },
    plan,
    end,
    structured,
    answer,
    openInterrupts: [...open.values()],
    canceled,
    error,
  };
}

/** The task's state; a run that stopped without an end (a restart, an abort by shutdown) reads as `working`. */
export function stateOf(log: TaskLog): TaskState {
  if (log.canceled) return STATE.canceled;
  if (log.end) return log.end.status === 'completed' ? STATE.completed : log.end.status === 'blocked' ? STATE.rejected : STATE.failed;
  if (log.openInterrupts.length > 0) return STATE.inputRequired;
  if (log.error !== undefined) return STATE.failed;
  return STATE.working;
}

/** Why a run ended without an answer, for the task's status message: the guardrail that blocked it, else the status and error. */
export function endedText(status: RunStatus | string | undefined, guardrail: GuardrailTrip | undefined, error: string | undefined): string {
  if (guardrail) return `${guardrailBlockText(guardrail)}.`;
  return error ?? `The run ended ${status}.`;
}

/** The interrupts as an A2A status message: a sentence for people, and the questions as data for programs. */
export function interruptMessage(ids: TaskIds, interrupts: readonly Interrupt[]): Message {
  const asked = interrupts.map((i) => ({
    id: i.id,
    reason: i.reason,
    payload: i.payload ?? null,
    ...(i.toolName === undefined ? {} : { toolName: i.toolName }),
  }));
  const approval = interrupts.length === 1 && interrupts[0]?.reason === 'approval';
  const how = approval
    ? 'Reply on this task with "yes" or "no" (or data { "approved": boolean, "message"?: string }).'
    : interrupts.length === 1
      ? 'Reply on this task with your answer (text, or a data part).'
      : 'Reply on this task with a data part { "answers": { <interrupt id>: <answer>, ... } }.';
  // The same id each time the same questions are shown: a client can tell whether its answer arrived.
  const messageId = `input-required:${interrupts.map((i) => i.id).join(',')}`;
  return agentMessage(
    ids,
    [textPart(`The agent needs input: ${JSON.stringify(asked)}. ${how}`), dataPart({ interrupts: asked })],
    messageId,
  );
}

/** The answer artifact of a completed run: its text, its structured answer when it has one, then its images and files. */
export function answerArtifact(output: string | undefined, structured: unknown, media: readonly MediaBlock[] = []): Artifact {
  const parts = [textPart(output ?? '')];
  if (structured !== undefined && structured !== null) parts.push(dataPart(structured));
  parts.push(...media.map(filePart));
  return artifact('answer', "The agent's answer.", parts);
}

export const planArtifact = (plan: unknown): Artifact =>
  artifact('plan', 'The current plan (replaced when the agent revises it).', [dataPart(plan)]);

/** The task as `tasks/get` and the first event of a stream show it, from the stored log alone. */
export function taskOf(log: TaskLog, state = stateOf(log), media: readonly MediaBlock[] = []): Task {
  const artifacts = [];
  if (log.plan !== undefined) artifacts.push(planArtifact(log.plan));
  if (log.end?.status === 'completed') artifacts.push(answerArtifact(log.end.output, log.structured, media));
  const message =
    state === STATE.inputRequired
      ? interruptMessage(log.ids, log.openInterrupts)
      : (state === STATE.failed || state === STATE.rejected) && (log.error || log.end)
        ? agentMessage(log.ids, [textPart(endedText(log.end?.status, log.end?.guardrail, log.error))])
        : undefined;
  return {
    id: log.ids.taskId,
    contextId: log.ids.contextId,
    status: { state, message, timestamp: new Date().toISOString() },
    artifacts,
    history: [],
    metadata: undefined,
  };
}

export { isTerminal };
