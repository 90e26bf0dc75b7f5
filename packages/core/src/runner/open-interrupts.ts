import type { AgentEvent, Interrupt } from '../events/agent-event.js';
import type { ToolResultBlock } from '../messages/content-block.js';
import { toolCallsOf, toolMessage } from '../messages/message.js';
import { readInvocation } from './invocation-log.js';

/** What a tool call an abandoned interrupt left open reads as its result. */
export const SUPERSEDED_OUTPUT = 'Not approved: superseded by a new message (the user wrote again instead of answering).';

/** The open interrupts of the session's last invocation, when it stopped on them and never ended. */
export function openInterruptsOf(events: readonly AgentEvent[]): { invocationId: string; interrupts: readonly Interrupt[] } | undefined {
  const log = readInvocation(events);
  if (!log || log.end || !log.openInterrupts.length) return undefined;
  return { invocationId: log.invocationId, interrupts: log.openInterrupts };
}

/** The event that made tool call `id` in the invocation (to answer it as the agent that made it). */
function callEventOf(events: readonly AgentEvent[], invocationId: string, id: string): AgentEvent | undefined {
  for (let i = events.length - 1; i >= 0; i--) {
    const event = events[i] as AgentEvent;
    if (event.invocationId !== invocationId) continue;
    if (event.message?.role === 'assistant' && toolCallsOf(event.message).some((c) => c.id === id)) return event;
  }
  return undefined;
}

/**
 * The events that close an invocation stopped on interrupts, so a new run can start on the session:
 * each open tool call gets an error result ("not approved: superseded"), then one event ends the
 * invocation naming the interrupts it abandoned.
 */
export function abandonmentEvents(
  events: readonly AgentEvent[],
  open: { invocationId: string; interrupts: readonly Interrupt[] },
  newId: () => string,
): AgentEvent[] {
  const out: AgentEvent[] = [];
  const timestamp = Date.now();
  for (const interrupt of open.interrupts) {
    if (!interrupt.toolCallId) continue;
    const call = callEventOf(events, open.invocationId, interrupt.toolCallId);
    if (!call) continue;
    const result: ToolResultBlock = {
      type: 'tool_result',
      toolCallId: interrupt.toolCallId,
      name:
        interrupt.toolName ??
        toolCallsOf(call.message ?? { role: 'assistant', content: [] }).find((c) => c.id === interrupt.toolCallId)?.name ??
        'tool',
      output: SUPERSEDED_OUTPUT,
      isError: true,
    };
    out.push({
      id: newId(),
      invocationId: open.invocationId,
      author: call.author,
      path: call.path,
      ...(call.branch !== undefined ? { branch: call.branch } : {}),
      timestamp,
      message: toolMessage([result]),
      meta: { kind: 'interrupt-abandoned', interruptId: interrupt.id },
    });
  }
  out.push({
    id: newId(),
    invocationId: open.invocationId,
    author: 'user',
    path: 'user',
    timestamp,
    actions: { invocationEnd: { status: 'aborted' } },
    meta: { kind: 'interrupts-abandoned', interruptIds: open.interrupts.map((i) => i.id) },
  });
  return out;
}
