import type { AgentEvent, ApprovalAnswer, ResumeOptions, Run, Runner } from '@replan/core';
import type { UIMessage } from 'ai';
import { UIStreamError } from './ui-stream-errors.js';

/**
 * The approvals the client answered (`addToolApprovalResponse`): the tool parts of its last
 * assistant message in state `approval-responded`, by approval id (our interrupt id).
 */
export function approvalResponsesOf(messages: readonly UIMessage[]): Record<string, ApprovalAnswer> {
  const last = [...messages].reverse().find((m) => m.role === 'assistant');
  // Null prototype: an approval id "__proto__" is kept as a key, not swallowed by Object.prototype's setter.
  const answers: Record<string, ApprovalAnswer> = Object.create(null);
  for (const part of last?.parts ?? []) {
    if (!('state' in part) || part.state !== 'approval-responded' || !('approval' in part) || !part.approval) continue;
    const { id, approved, reason } = part.approval;
    answers[id] = reason ? { approved, message: reason } : approved;
  }
  return answers;
}

/** The approval interrupts the session's last invocation waits for. */
function openApprovals(events: readonly AgentEvent[]): string[] {
  const invocationId = events[events.length - 1]?.invocationId;
  const open = new Set<string>();
  const answered = new Set<string>();
  for (const event of events) {
    if (event.invocationId !== invocationId) continue;
    for (const id of Object.keys(event.actions?.resumeValues ?? {})) answered.add(id);
    const interrupt = event.actions?.interrupt;
    if (interrupt?.reason === 'approval') open.add(interrupt.id);
  }
  return [...open].filter((id) => !answered.has(id));
}

/** What `resumeFromApprovals` needs: the runner, the session, and the messages the client sent. */
export interface ResumeFromApprovalsOptions extends Omit<ResumeOptions, 'approvals' | 'values'> {
  readonly messages: readonly UIMessage[];
}

/**
 * Answers the session's approval requests with the client's approval responses and resumes the
 * run (`runner.resume({ approvals })`, streaming by default). `undefined` when the messages answer
 * no approval (a new user message: start a run instead). An answer to an approval the session is
 * not waiting for throws a `UIStreamError` of kind `unknown_approval` before anything runs.
 */
export async function resumeFromApprovals(runner: Runner, options: ResumeFromApprovalsOptions): Promise<Run | undefined> {
  const { messages, ...resume } = options;
  const approvals = approvalResponsesOf(messages);
  const ids = Object.keys(approvals);
  if (!ids.length) return undefined;
  const session = await runner.sessionStore.get({ appName: runner.appName, userId: options.userId, id: options.sessionId });
  const open = openApprovals(session?.events ?? []);
  const unknown = ids.filter((id) => !open.includes(id));
  if (unknown.length) throw UIStreamError.unknownApproval(unknown, open);
  return runner.resume({ stream: true, ...resume, approvals });
}
