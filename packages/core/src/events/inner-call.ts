import type { AgentEvent } from './agent-event.js';

/**
 * The `meta` key that marks an event as one of a tool's inner calls: `{ id, index }` of the tool
 * call that made it (`@replan/code` stores each call a program makes as its own `tool_call` /
 * `tool_result` pair). Such events are in the log for resume, replay and views, never in a
 * model's context nor in the agent's own turns.
 */
export const INNER_CALL_META = 'codeCall';

/** True for an event stored for a tool's inner call (see `INNER_CALL_META`). */
export const isInnerCallEvent = (event: AgentEvent): boolean => event.meta?.[INNER_CALL_META] !== undefined;
