import type { AgentEvent } from '../events/agent-event.js';
import type { ToolCallBlock } from '../messages/content-block.js';
import { toolCallsOf } from '../messages/message.js';

/** Tool calls of the agent's last model turn that have no stored result yet. */
export function pendingToolCalls(own: readonly AgentEvent[]): ToolCallBlock[] {
  for (let i = own.length - 1; i >= 0; i--) {
    const message = own[i]?.message;
    if (message?.role !== 'assistant') continue;
    const calls = toolCallsOf(message);
    if (!calls.length) return [];
    const answered = new Set<string>();
    for (let j = i + 1; j < own.length; j++)
      for (const block of own[j]?.message?.content ?? []) if (block.type === 'tool_result') answered.add(block.toolCallId);
    return calls.filter((c) => !answered.has(c.id));
  }
  return [];
}
