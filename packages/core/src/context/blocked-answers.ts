import type { AgentEvent } from '../events/agent-event.js';
import { withheldAnswers } from '../guardrails/answer-gate.js';
import { guardrailBlockText } from '../guardrails/guardrail-block.js';
import { assistantMessage, type Message } from '../messages/message.js';

const blocked = (event: AgentEvent) => event.actions?.invocationEnd?.status === 'blocked';

/**
 * What a model is shown instead of each answer an output guardrail blocked (by event id): a note
 * naming the block. The answer stays in the log for audit, but a later turn must not put the
 * withheld text back in front of the model (it would repeat it, and it may be what was blocked).
 * `undefined` (no work) for the usual log with no blocked run.
 */
export function blockedAnswerNotes(events: readonly AgentEvent[]): ReadonlyMap<string, Message> | undefined {
  if (!events.some(blocked)) return undefined;
  const notes = new Map<string, Message>();
  for (const [id, why] of withheldAnswers(events))
    if (why.guardrail) notes.set(id, assistantMessage(`(This answer was withheld from the user. ${guardrailBlockText(why.guardrail)}.)`));
  return notes;
}
