import type { AgentEvent } from '@replan/core';
import { guardrailBlockText, type WithheldAnswer, withheldAnswers } from '@replan/core/agent-kit';

const computed = new WeakMap<readonly AgentEvent[], ReadonlyMap<string, WithheldAnswer>>();

/** The withheld answers of a session's events, computed once per events array (every row of a page asks). */
function withheldIn(events: readonly AgentEvent[]): ReadonlyMap<string, WithheldAnswer> {
  let found = computed.get(events);
  if (!found) {
    found = withheldAnswers(events);
    computed.set(events, found);
  }
  return found;
}

/** What the studio shows in place of a withheld answer's text. */
export const withheldNote = (withheld: WithheldAnswer): string =>
  withheld.guardrail ? `(answer withheld) ${guardrailBlockText(withheld.guardrail)}` : '(answer withheld until the output guardrails pass)';

/**
 * The event as the studio shows it: an answer an output guardrail withheld (`withheldAnswers`)
 * loses its text, reasoning and structured value, which stay in the log for audit only.
 */
export function shownEvent(event: AgentEvent, events: readonly AgentEvent[] | undefined): AgentEvent {
  const withheld = events ? withheldIn(events).get(event.id) : undefined;
  if (!withheld) return event;
  const note = withheldNote(withheld);
  const { final: _final, ...actions } = event.actions ?? {};
  // The model's response memo (`meta.request.response`, kept for replays) holds the answer too.
  const request = event.meta?.request;
  const { response: _response, ...memo } = typeof request === 'object' && request !== null ? (request as Record<string, unknown>) : {};
  return {
    ...event,
    ...(event.message ? { message: { ...event.message, content: [{ type: 'text', text: note }] } } : {}),
    actions: { ...actions, final: { text: note } },
    ...(request !== undefined ? { meta: { ...event.meta, request: memo } } : {}),
  };
}
