import { randomUUID } from 'node:crypto';
import type { Artifact, Message, Part, StreamResponse, Task, TaskState } from '@a2a-js/sdk';

/**
 * The A2A task states, as the SDK's `TaskState` enum numbers them. Kept here (not imported) so that
 * `@replan/a2a` loads without the peer SDK until a server or client is started.
 */
export const STATE = {
  working: 2 as TaskState,
  completed: 3 as TaskState,
  failed: 4 as TaskState,
  canceled: 5 as TaskState,
  inputRequired: 6 as TaskState,
  rejected: 7 as TaskState,
} as const;

/** Terminal states: a task in one of them takes no more messages. */
export const isTerminal = (state: TaskState): boolean =>
  state === STATE.completed || state === STATE.failed || state === STATE.canceled || state === STATE.rejected;

const ROLE_AGENT = 2 as Message['role'];

/** Which task an update belongs to. */
export interface TaskIds {
  readonly taskId: string;
  readonly contextId: string;
}

export const textPart = (text: string): Part => ({
  content: { $case: 'text', value: text },
  metadata: undefined,
  filename: '',
  mediaType: 'text/plain',
});
export const dataPart = (value: unknown): Part => ({
  content: { $case: 'data', value },
  metadata: undefined,
  filename: '',
  mediaType: 'application/json',
});

/** A message from the agent on a task (a status message). */
export function agentMessage(ids: TaskIds, parts: Part[], messageId: string = randomUUID()): Message {
  return {
    messageId,
    contextId: ids.contextId,
    taskId: ids.taskId,
    role: ROLE_AGENT,
    parts,
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
  };
}

export function artifact(artifactId: string, description: string, parts: Part[]): Artifact {
  return { artifactId, name: artifactId, description, parts, metadata: undefined, extensions: [] };
}

export const taskResponse = (task: Task): StreamResponse => ({ payload: { $case: 'task', value: task } });

export function statusResponse(ids: TaskIds, state: TaskState, message?: Message): StreamResponse {
  return {
    payload: {
      $case: 'statusUpdate',
      value: { ...ids, status: { state, message, timestamp: new Date().toISOString() }, metadata: undefined },
    },
  };
}

export function artifactResponse(ids: TaskIds, value: Artifact): StreamResponse {
  return { payload: { $case: 'artifactUpdate', value: { ...ids, artifact: value, append: false, lastChunk: true, metadata: undefined } } };
}
