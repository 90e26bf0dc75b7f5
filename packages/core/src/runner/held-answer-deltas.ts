import type { AgentEvent } from '../events/agent-event.js';
import { AWAITS_GUARDRAILS_META } from '../guardrails/answer-gate.js';
import { WORK_LABEL_META } from '../models/work-label.js';

const keyOf = (event: AgentEvent): string => `${event.branch ?? ''}\u0000${event.path}`;
/** A delta of work under a label (plan–execute: a plan step's, the executor's) is never the run's answer. */
const isLabelledDelta = (event: AgentEvent): boolean => event.meta?.[WORK_LABEL_META] !== undefined;
const hasText = (event: AgentEvent): boolean => event.message?.content.some((b) => b.type === 'text' && b.text !== '') === true;

/**
 * For an agent with output guardrails, streamed answer text must not reach the caller before the
 * guardrails pass. Which model call answers is known only when it ends, so an agent's text deltas
 * wait for its next stored event: an intermediate message (tool calls) lets them through first; an
 * answer drops them (readers show its stored text once the guardrails passed) and is marked as
 * awaiting the guardrails' verdict (`AnswerGate`).
 */
export class HeldAnswerDeltas {
  private readonly held = new Map<string, AgentEvent[]>();

  /** Whether a streamed delta is held (else it is emitted now). */
  hold(partial: AgentEvent): boolean {
    if (!hasText(partial) || isLabelledDelta(partial)) return false;
    const key = keyOf(partial);
    const list = this.held.get(key);
    if (list) list.push(partial);
    else this.held.set(key, [partial]);
    return true;
  }

  /** A stored event of the agent: the held deltas to emit before it, and the event as it is stored. */
  settle(event: AgentEvent): { readonly before: readonly AgentEvent[]; readonly event: AgentEvent } {
    const key = keyOf(event);
    const before = this.held.get(key) ?? [];
    this.held.delete(key);
    if (event.actions?.final === undefined) return { before, event };
    return { before: [], event: { ...event, meta: { ...event.meta, [AWAITS_GUARDRAILS_META]: true } } };
  }
}
