import { type AgentEvent, type GuardrailTrip, type Message, messageText, type RunStatus, type Session } from '@replan/core';
import { withheldAnswers } from '@replan/core/agent-kit';
import { EvalInputError } from '../errors.js';
import { toolCallsOfEvents } from '../run/run-observation.js';
import type { Matcher } from '../matchers/arg-matcher.js';
import type { CaseExpectations, EvalCase, EvalInput } from '../set/eval-case.js';

export interface SessionToEvalCaseOptions {
  /** The case's name (default: `session-<id>`). */
  readonly name?: string;
}

/** A stored session as an eval case plus the recording its test replays offline. */
export interface SessionEvalCase {
  /** Input = the session's first user message; expects its tool calls (exact, with their args), its answer and its status. */
  readonly evalCase: EvalCase;
  /**
   * The session's events, for `ReplayModel.fromSession(recording)` and `replayTools(recording, tools)`.
   * Verbatim: a replay needs every model response, a withheld answer's too.
   */
  readonly recording: readonly AgentEvent[];
  /** The guardrail that blocked the recorded invocation (its answer, if any, is left out of the case). */
  readonly guardrail?: GuardrailTrip;
}

/** A user message with text only becomes a string input (easier to read and edit in a case file). */
function inputOf(message: Message): EvalInput {
  return message.content.every((b) => b.type === 'text') ? messageText(message) : message;
}

/**
 * Turns a stored session (e.g. a production failure read from `PostgresSessionStore`) into an eval
 * case and its recording: the first invocation's user input, the tool calls it made (mode `exact`,
 * args compared as recorded, call ids left out), its final answer, and its status when the
 * invocation ended (`completed` / `max_iterations` / `blocked`; a blocked run expects no answer, and an
 * answer the output guardrails never passed is left out too).
 * Edit the expectations where the recorded behaviour was wrong, then replay the recording in a
 * test. Images and files of the input stay
 * as the session's blob ids: to run the case against another store, give them their bytes first
 * (`inlineBlobs` from `@replan/core`; `replan eval --from-session` does). Throws an `EvalInputError` of kind `set`
 * for a session with no user input.
 */
export function sessionToEvalCase(session: Pick<Session, 'id' | 'events'>, options: SessionToEvalCaseOptions = {}): SessionEvalCase {
  const first = session.events.find((e) => e.author === 'user' && e.message?.role === 'user' && !e.partial);
  if (!first?.message) throw new EvalInputError('set', `Session "${session.id}" has no user input to turn into an eval case.`);
  const events = session.events.filter((e) => e.invocationId === first.invocationId && !e.partial);
  const end = events.findLast((e) => e.actions?.invocationEnd)?.actions?.invocationEnd;
  // An answer an output guardrail blocked (or had not passed yet) was never given: the case does not expect it.
  const withheld = withheldAnswers(events);
  const answer = end?.output ?? events.findLast((e) => e.actions?.final && !withheld.has(e.id))?.actions?.final?.text;
  // Recorded args are JSON, which compares as itself (see `Matcher`).
  const calls = toolCallsOfEvents(events).map((call) => ({ name: call.name, args: call.args as Readonly<Record<string, Matcher>> }));
  const expect: CaseExpectations = {
    trajectory: { mode: 'exact', calls },
    ...(answer !== undefined ? { answer } : {}),
    ...(end ? { status: end.status as RunStatus } : {}),
  };
  return {
    evalCase: { name: options.name ?? `session-${session.id}`, input: inputOf(first.message), expect },
    recording: session.events.filter((e) => !e.partial),
    ...(end?.status === 'blocked' && end.guardrail ? { guardrail: end.guardrail } : {}),
  };
}
