import { messageText, stringifyToolOutput, toolResultsOf, type AgentEvent, type FinalAnswer } from '@replan/core';
import type { StepToolError } from './step-tool-error.js';

/** Tool failures among a step's events. */
export function toolErrorsOf(events: readonly AgentEvent[]): StepToolError[] {
  const errors: StepToolError[] = [];
  for (const event of events)
    for (const r of toolResultsOf(event.message)) if (r.isError) errors.push({ tool: r.name, error: stringifyToolOutput(r.output) });
  return errors;
}

/** What a step's final ReAct event says: its result text, structured answer and tool failures. */
export function stepOutcome(
  final: FinalAnswer,
  event: AgentEvent,
  stepEvents: readonly AgentEvent[],
): { result: string; structured?: unknown; toolErrors?: StepToolError[] } {
  const toolErrors = toolErrorsOf(stepEvents);
  return {
    result: final.text || messageText(event.message),
    ...(final.structured !== undefined ? { structured: final.structured } : {}),
    ...(toolErrors.length ? { toolErrors } : {}),
  };
}

/**
 * A step's final event with its `final` removed (a step's answer is not the run's answer) and
 * `stateDelta` (and `stateAppend`) extended.
 */
export function asStepResult(
  event: AgentEvent,
  stateDelta: Readonly<Record<string, unknown>>,
  stateAppend?: Readonly<Record<string, readonly unknown[]>>,
): AgentEvent {
  const { final: _answer, ...actions } = event.actions ?? {};
  return {
    ...event,
    actions: {
      ...actions,
      stateDelta: { ...actions.stateDelta, ...stateDelta },
      ...(stateAppend ? { stateAppend: { ...actions.stateAppend, ...stateAppend } } : {}),
    },
  };
}
