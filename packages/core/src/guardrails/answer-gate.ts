import type { AgentEvent } from '../events/agent-event.js';
import type { GuardrailTrip } from '../events/guardrail-verdict.js';

/**
 * The meta key the runner sets on an answer (`actions.final`) of an agent with output guardrails:
 * the answer waits for their verdict, so a reader must not show it before the invocation ends.
 */
export const AWAITS_GUARDRAILS_META = 'awaitsGuardrails';

/**
 * Why a reader withholds an answer event: `guardrail` is the output guardrail that blocked it; without
 * it, the guardrails never decided (the invocation stopped, or has not ended yet, after the answer).
 */
export interface WithheldAnswer {
  readonly guardrail?: GuardrailTrip;
}

/** An item `AnswerGate` lets through, in order; `withheld` is set on a withheld answer event. */
export interface GateRelease<T> {
  readonly item: T;
  readonly withheld?: WithheldAnswer;
}

const PASSED = 'passed';
type Verdict = typeof PASSED | WithheldAnswer;

const isAnswer = (event: AgentEvent): boolean =>
  !event.partial && event.actions?.final !== undefined && event.meta?.childSessionId === undefined;
const awaitsGuardrails = (event: AgentEvent): boolean => event.meta?.[AWAITS_GUARDRAILS_META] === true;

/**
 * Holds a session's events from each answer (`actions.final`) on until it is known whether an output
 * guardrail blocked that answer: the end of its invocation decides (`blocked` withholds it), and so
 * does a later answer (the run's answer is its last). Every reader of a run or of its log — live or
 * replayed — passes events through one, so a blocked answer is never shown; `withheldAnswers` is
 * the same for a whole stored log.
 *
 * An answer the runner marked as awaiting guardrails is held until its invocation ends (and
 * withheld if it never does); an unmarked one (an agent without output guardrails, or a log written
 * before the mark) only until the agent goes on (an event with a message) or the invocation ends.
 */
export class AnswerGate<T = AgentEvent> {
  private held: T[] = [];
  private answer: AgentEvent | undefined;

  /** `eventOf` reads the event of an item (default: the item is the event). */
  constructor(private readonly eventOf: (item: T) => AgentEvent = (item) => item as unknown as AgentEvent) {}

  /** Takes the next item; returns the items that may be shown now, in order. */
  push(item: T): GateRelease<T>[] {
    const event = this.eventOf(item);
    const out: GateRelease<T>[] = [];
    if (this.answer) {
      const verdict = isAnswer(event) ? PASSED : this.verdictOn(this.answer, event);
      if (verdict !== undefined) out.push(...this.release(verdict));
    }
    if (isAnswer(event)) {
      this.answer = event;
      this.held = [item];
    } else if (this.answer) this.held.push(item);
    else out.push({ item });
    return out;
  }

  /** The stream ended (the run stopped): what is held is let through, an undecided marked answer withheld. */
  flush(): GateRelease<T>[] {
    return this.answer ? this.release(this.undecided(this.answer)) : [];
  }

  private verdictOn(answer: AgentEvent, event: AgentEvent): Verdict | undefined {
    if (event.meta?.childSessionId !== undefined) return undefined;
    if (event.invocationId !== answer.invocationId) return this.undecided(answer);
    const end = event.actions?.invocationEnd;
    if (end) return end.status === 'blocked' && end.guardrail ? { guardrail: end.guardrail } : PASSED;
    if (!awaitsGuardrails(answer) && event.message) return PASSED;
    return undefined;
  }

  private undecided(answer: AgentEvent): Verdict {
    return awaitsGuardrails(answer) ? {} : PASSED;
  }

  private release(verdict: Verdict): GateRelease<T>[] {
    const answer = this.answer;
    const items = this.held;
    this.answer = undefined;
    this.held = [];
    return items.map((item) => (verdict !== PASSED && this.eventOf(item) === answer ? { item, withheld: verdict } : { item }));
  }
}

/**
 * The answer events of a stored log that readers withhold (by event id): those an output guardrail
 * blocked (`guardrail` set), and marked answers whose invocation has not ended (yet). The events
 * stay in the log for audit; a reader shows the block (`guardrailBlockText`) instead.
 */
export function withheldAnswers(events: readonly AgentEvent[]): ReadonlyMap<string, WithheldAnswer> {
  const gate = new AnswerGate();
  const withheld = new Map<string, WithheldAnswer>();
  const note = (released: readonly GateRelease<AgentEvent>[]) => {
    for (const { item, withheld: why } of released) if (why) withheld.set(item.id, why);
  };
  for (const event of events) note(gate.push(event));
  note(gate.flush());
  return withheld;
}
