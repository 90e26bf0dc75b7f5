import type { Message, Part, SendMessageRequest, Task } from '@a2a-js/sdk';
import type { MediaBlock } from '@replan/core';

/** A2A task states by number (the SDK's `TaskState`), kept here so that nothing loads the SDK early. */
export const REMOTE_STATE = { working: 2, completed: 3, failed: 4, canceled: 5, inputRequired: 6, rejected: 7, authRequired: 8 } as const;
const STATE_NAMES: Record<number, string> = {
  1: 'submitted',
  2: 'working',
  3: 'completed',
  4: 'failed',
  5: 'canceled',
  6: 'input-required',
  7: 'rejected',
  8: 'auth-required',
};
export const stateName = (state: number | undefined): string => STATE_NAMES[state ?? 0] ?? `state ${state}`;

/** A user message as the SDK sends it: text, or a data part for anything else. */
export function userMessage(content: unknown, ids: { taskId?: string; contextId?: string }): SendMessageRequest {
  const part: Part =
    typeof content === 'string'
      ? { content: { $case: 'text', value: content }, metadata: undefined, filename: '', mediaType: 'text/plain' }
      : { content: { $case: 'data', value: content }, metadata: undefined, filename: '', mediaType: 'application/json' };
  const message: Message = {
    messageId: crypto.randomUUID(),
    contextId: ids.contextId ?? '',
    taskId: ids.taskId ?? '',
    role: 1 as Message['role'],
    parts: [part],
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
  };
  return { tenant: '', message, configuration: undefined, metadata: undefined };
}

/** The text parts of a message or an artifact, joined. */
export function textOf(parts: readonly Part[] | undefined): string {
  return (parts ?? [])
    .map((p) => (p.content?.$case === 'text' ? p.content.value : ''))
    .filter((t) => t !== '')
    .join('\n');
}

/** The first data part's value, if any. */
export function dataOf(parts: readonly Part[] | undefined): unknown {
  for (const p of parts ?? []) if (p.content?.$case === 'data') return p.content.value;
  return undefined;
}

/**
 * The file parts of a message or an artifact as content blocks: an `image/*` part an image block,
 * any other a file block (named by the part's filename); bytes inline, or an http(s) URL.
 */
export function mediaOf(parts: readonly Part[] | undefined): MediaBlock[] {
  const blocks: MediaBlock[] = [];
  for (const p of parts ?? []) {
    const content = p.content;
    const source =
      content?.$case === 'raw'
        ? { data: Buffer.from(content.value).toString('base64') }
        : content?.$case === 'url' && /^https?:/i.test(content.value)
          ? { url: content.value }
          : undefined;
    if (source === undefined) continue;
    const mediaType = p.mediaType || 'application/octet-stream';
    blocks.push(
      mediaType.startsWith('image/')
        ? { type: 'image', mediaType, ...source }
        : { type: 'file', mediaType, ...(p.filename ? { filename: p.filename } : {}), ...source },
    );
  }
  return blocks;
}

/** A finished task's answer: its `answer` artifact (replan servers), else every artifact's text, else its status message; and their files. */
export function answerOf(task: Task): { text: string; structured?: unknown; media: MediaBlock[] } {
  const answer = task.artifacts.find((a) => a.artifactId === 'answer');
  if (answer) {
    const structured = dataOf(answer.parts);
    return { text: textOf(answer.parts), ...(structured === undefined ? {} : { structured }), media: mediaOf(answer.parts) };
  }
  const text = task.artifacts.map((a) => textOf(a.parts)).filter((t) => t !== '');
  const media = task.artifacts.flatMap((a) => mediaOf(a.parts));
  return { text: text.length > 0 ? text.join('\n') : textOf(task.status?.message?.parts), media };
}

/**
 * What identifies the question a task asks now: its status message id. Two reads of a task that
 * still waits on the same question give the same id; an answered one moves on to another state or message.
 */
export const questionIdOf = (task: Task): string | undefined =>
  task.status?.state === REMOTE_STATE.inputRequired ? (task.status.message?.messageId ?? '') : undefined;
