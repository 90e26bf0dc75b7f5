import { type ModelRequest, stringifyToolOutput, type ToolResultBlock, toolResultsOf } from '@replan/core';
import type { ScriptedToolCall } from '@replan/core/testing';

/**
 * What the executor's model is shown when it is called for a step: what a step scripted by `turn`
 * answers from. After a compaction the request's older turns are one summary message, so its
 * facts are in `text`, no longer in `results`.
 */
export interface StepView {
  /** The request as sent (messages and tools); read it during the call, as the runner may add to its messages later. */
  readonly request: ModelRequest;
  /**
   * Every text and tool result of the request's messages, one block per line, as the model reads
   * them, including a compaction's summary.
   */
  readonly text: string;
  /** The tool results in the request: the step's results so far that no compaction summarised. */
  readonly results: readonly ToolResultBlock[];
  /** The step: its key in `steps` (as written, or its id), or `#n` for a linear step with no key. */
  readonly step: string;
}

/** One turn of a step scripted by `turn`: tool calls (several run together), or the step's final text. */
export type StepTurn = { readonly toolCalls: ScriptedToolCall | readonly ScriptedToolCall[] } | { readonly text: string };

/**
 * A step scripted as a function of what its model is shown, for a step whose turns cannot be
 * counted from the request: under compaction, older turns become a summary message, so a
 * `toolCalls` list (counted by the request's assistant messages) would restart mid-step.
 */
export interface TurnStepScript {
  /** Each call's answer: more tool calls, or the step's text (which ends the step). */
  readonly turn: (view: StepView) => StepTurn;
}

/** The view of `request` for `step`. */
export function stepView(request: ModelRequest, step: string): StepView {
  const text = request.messages
    .flatMap((m) => m.content.map((b) => (b.type === 'text' ? b.text : b.type === 'tool_result' ? stringifyToolOutput(b.output) : '')))
    .filter((s) => s !== '')
    .join('\n');
  return { request, text, results: request.messages.flatMap((m) => toolResultsOf(m)), step };
}
