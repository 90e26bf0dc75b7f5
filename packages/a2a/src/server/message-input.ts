import type { Message } from '@a2a-js/sdk';
import { type Interrupt, isApprovalAnswer } from '@replan/core';

/** What a message carries: its text parts joined, and its first data part. */
export interface MessageContent {
  readonly text: string;
  readonly data: unknown;
}

export function contentOf(message: Message): MessageContent {
  let text = '';
  let data: unknown;
  for (const part of message.parts ?? []) {
    const content = part.content;
    if (content?.$case === 'text') text += (text ? '\n' : '') + content.value;
    else if (content?.$case === 'data' && data === undefined) data = content.value;
  }
  return { text, data };
}

/** The input of a new task: its text (or its data as JSON); a string error says why the message cannot start one. */
export function taskInput(content: MessageContent, maxChars: number): { input: string } | { error: string } {
  const input = content.text.trim() !== '' ? content.text : content.data !== undefined ? JSON.stringify(content.data) : '';
  if (input.trim() === '') return { error: 'The message has no text: send the task for the agent as a text part (or a data part).' };
  if (input.length > maxChars) return { error: `The message is over ${maxChars} characters: shorten it.` };
  return { input };
}

const YES = /^\s*(y|yes|approve|approved|ok|true)\s*[.!]?\s*$/i;
const NO = /^\s*(n|no|deny|denied|reject|rejected|false)\s*[.!]?\s*$/i;

/** An approval's answer given as words: yes/no; data passes as it is. */
function approvalValue(content: MessageContent): unknown {
  if (content.data !== undefined) return content.data;
  if (YES.test(content.text)) return true;
  if (NO.test(content.text)) return false;
  // Anything else is no approval answer: the check below says what to send.
  return content.text;
}

/**
 * The resume values a reply on an `input-required` task gives: for one open question, its text (or
 * data); for several, a data part `{ answers: { <id>: <answer> } }`. A string says what is wrong.
 */
export function answerValues(open: readonly Interrupt[], content: MessageContent): Record<string, unknown> | string {
  const answers = (content.data as { answers?: unknown } | undefined)?.answers;
  let values: Record<string, unknown>;
  if (typeof answers === 'object' && answers !== null && !Array.isArray(answers)) {
    const missing = open.filter((i) => !Object.hasOwn(answers, i.id));
    if (missing.length > 0) return `"answers" lacks an answer for ${missing.map((i) => `"${i.id}"`).join(', ')}.`;
    values = Object.fromEntries(open.map((i) => [i.id, (answers as Record<string, unknown>)[i.id]]));
  } else {
    const [only, ...more] = open;
    if (only === undefined) return 'The task asks nothing now.';
    if (more.length > 0)
      return `The task waits on ${open.length} questions: reply with a data part { "answers": { <interrupt id>: <answer> } } (ids: ${open.map((i) => i.id).join(', ')}).`;
    const value = only.reason === 'approval' ? approvalValue(content) : content.data !== undefined ? content.data : content.text;
    if (value === undefined || value === '') return 'The reply is empty: answer the question the task asked.';
    values = { [only.id]: value };
  }
  for (const interrupt of open)
    if (interrupt.reason === 'approval' && !isApprovalAnswer(values[interrupt.id]))
      return `"${interrupt.id}" asks for an approval: answer "yes" or "no", or data { "approved": boolean, "message"?: string }.`;
  return values;
}
