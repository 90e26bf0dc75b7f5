import type { ReasoningBlock, ToolCallBlock, ToolResultBlock } from '../messages/content-block.js';
import type { Message } from '../messages/message.js';
import type { AgentEvent, CompactionRecord, EventError, FinalAnswer, Interrupt, RunStatus } from './agent-event.js';

/**
 * What an event is, as a union discriminated by `kind`, so a UI or log can `switch` on it and
 * have each case narrowed. An event carries one main meaning; `eventKind` picks it in this order:
 * error, end of invocation, interrupt, streamed delta, answer, tool calls, tool results, resume
 * values, user message, other message, cursor, state change.
 */
export type AgentEventKind =
  | { readonly kind: 'error'; readonly error: EventError }
  | { readonly kind: 'end'; readonly status: RunStatus; readonly output?: string }
  | { readonly kind: 'interrupt'; readonly interrupt: Interrupt }
  /** A streamed text delta (`partial`, never stored). */
  | { readonly kind: 'text-delta'; readonly text: string }
  /** A streamed reasoning delta (`partial`, never stored). */
  | { readonly kind: 'reasoning-delta'; readonly text: string }
  /** An agent's answer (`actions.final`), with its reasoning blocks if any. */
  | { readonly kind: 'answer'; readonly final: FinalAnswer; readonly reasoning: readonly ReasoningBlock[] }
  /** A model turn that calls tools (text and reasoning may come with it). */
  | { readonly kind: 'tool-calls'; readonly calls: readonly ToolCallBlock[]; readonly message: Message }
  | { readonly kind: 'tool-results'; readonly results: readonly ToolResultBlock[] }
  /** Answers to interrupts, stored when a run was resumed with values. */
  | { readonly kind: 'resume'; readonly values: Readonly<Record<string, unknown>> }
  | { readonly kind: 'user-message'; readonly message: Message }
  /** Any other message (e.g. an agent's text without a final answer, a nudge or repair prompt). */
  | { readonly kind: 'message'; readonly message: Message }
  /** A composite agent's cursor (`actions.agentState`). */
  | { readonly kind: 'cursor'; readonly state: Readonly<Record<string, unknown>> }
  /** Only state changes (and whatever `meta` says). */
  | {
      readonly kind: 'state';
      readonly delta: Readonly<Record<string, unknown>>;
      readonly append: Readonly<Record<string, readonly unknown[]>>;
    }
  /** A `ReActAgent` summarised the older part of its turn (`actions.compaction`). */
  | { readonly kind: 'compaction'; readonly compaction: CompactionRecord }
  | { readonly kind: 'other' };

const joinedText = (message: Message, type: 'text' | 'reasoning') => {
  let text = '';
  for (const block of message.content)
    if (block.type === 'text' && type === 'text') text += block.text;
    else if (block.type === 'reasoning' && type === 'reasoning') text += block.reasoning;
  return text;
};

/** Classifies an event (see `AgentEventKind`). */
export function eventKind(event: AgentEvent): AgentEventKind {
  const { actions, message } = event;
  if (event.error) return { kind: 'error', error: event.error };
  if (actions?.invocationEnd) {
    const { status, output } = actions.invocationEnd;
    return output === undefined ? { kind: 'end', status } : { kind: 'end', status, output };
  }
  if (actions?.interrupt) return { kind: 'interrupt', interrupt: actions.interrupt };
  if (event.partial && message) {
    const reasoning = joinedText(message, 'reasoning');
    return reasoning ? { kind: 'reasoning-delta', text: reasoning } : { kind: 'text-delta', text: joinedText(message, 'text') };
  }
  if (actions?.final)
    return {
      kind: 'answer',
      final: actions.final,
      reasoning: message ? message.content.filter((b): b is ReasoningBlock => b.type === 'reasoning') : [],
    };
  if (message) {
    const calls = message.content.filter((b): b is ToolCallBlock => b.type === 'tool_call');
    if (calls.length) return { kind: 'tool-calls', calls, message };
    const results = message.content.filter((b): b is ToolResultBlock => b.type === 'tool_result');
    if (results.length) return { kind: 'tool-results', results };
  }
  if (actions?.resumeValues) return { kind: 'resume', values: actions.resumeValues };
  if (message) return event.author === 'user' ? { kind: 'user-message', message } : { kind: 'message', message };
  if (actions?.agentState) return { kind: 'cursor', state: actions.agentState };
  if (actions?.compaction) return { kind: 'compaction', compaction: actions.compaction };
  if (actions?.stateDelta || actions?.stateAppend)
    return { kind: 'state', delta: actions.stateDelta ?? {}, append: actions.stateAppend ?? {} };
  return { kind: 'other' };
}
