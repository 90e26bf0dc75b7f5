import type { AgentEvent } from '../events/agent-event.js';
import type { CompensatedCall } from '../errors/compensation-error.js';
import type { ToolCallBlock } from '../messages/content-block.js';
import type { Tool } from '../tools/tool.js';
import type { ToolFinder } from './agent-tools.js';
import { COMPENSATION_CALL } from './compensation-ids.js';

/** A finished call to undo: the call as stored, its tool and its stored output. */
export interface CompensationTarget {
  readonly call: ToolCallBlock;
  readonly tool: Tool;
  readonly result: unknown;
}

/** What is to be undone, in order (reverse order of completion), and what cannot be (no stored result). */
export interface CompensationPlan {
  readonly targets: readonly CompensationTarget[];
  readonly skipped: readonly CompensatedCall[];
}

/**
 * The calls of compensable tools among `events` (those `inScope` keeps), read from the log: each
 * call whose result is stored and not an error is a target, latest result first; a call with no
 * stored result is skipped (it may or may not have run: undoing it could undo nothing, or the
 * wrong thing). Compensations themselves and the inner calls of code steps (`<id>#<n>`) are not in scope.
 */
export function compensableCalls(
  events: readonly AgentEvent[],
  findTool: ToolFinder,
  inScope: (event: AgentEvent) => boolean = () => true,
): CompensationPlan {
  const calls = new Map<string, { readonly call: ToolCallBlock; readonly tool: Tool }>();
  const order: { readonly callId: string; readonly result: unknown }[] = [];
  const answered = new Set<string>();
  for (const event of events) {
    if (event.meta?.kind === COMPENSATION_CALL || !inScope(event)) continue;
    for (const block of event.message?.content ?? []) {
      if (block.type === 'tool_call' && !block.id.includes('#')) {
        const tool = findTool(block.name, event.author);
        if (tool?.compensate) calls.set(block.id, { call: block, tool });
      } else if (block.type === 'tool_result' && calls.has(block.toolCallId) && !answered.has(block.toolCallId)) {
        answered.add(block.toolCallId);
        if (!block.isError) order.push({ callId: block.toolCallId, result: block.output });
      }
    }
  }
  const targets: CompensationTarget[] = [];
  for (let i = order.length - 1; i >= 0; i--) {
    const done = order[i] as (typeof order)[number];
    const found = calls.get(done.callId);
    if (found) targets.push({ ...found, result: done.result });
  }
  const skipped = [...calls.values()].filter((c) => !answered.has(c.call.id)).map((c) => ({ callId: c.call.id, tool: c.tool.name }));
  return { targets, skipped };
}
