import type { AgentEvent } from '../../events/agent-event.js';

let seq = 0;
/** A plain user-message event for contract tests. */
export function contractEvent(text: string, extra: Partial<AgentEvent> = {}): AgentEvent {
  seq++;
  return {
    id: `ev-${seq}-${Math.random().toString(36).slice(2)}`,
    invocationId: 'inv-1',
    author: 'user',
    path: 'user',
    timestamp: 1_700_000_000_000 + seq,
    message: { role: 'user', content: [{ type: 'text', text }] },
    ...extra,
  };
}
