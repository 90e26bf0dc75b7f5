import { stringifyToolOutput, toolCallsOf, toolResultsOf, type AgentEvent, type ToolCallBlock } from '@replan/core';
import type { CodeCallMark, InnerCallView } from '../../web/src/wire-types.js';

/**
 * Code steps (`@replan/code`, design §22) in the studio. A code call is a tool call whose args are
 * `{ program }`; each call its program makes is a tool-call event and a tool-result event of its
 * own, marked `meta.codeCall: { id, index }`. Read from the event data: the studio needs nothing
 * from `@replan/code`. A program is model-written text: the page shows it as text (never markup),
 * and both it and the list of inner calls are bounded.
 */

/** The most program characters one view carries. */
export const PROGRAM_CHARS = 20_000;
/** The most inner calls listed under one code call. */
export const INNER_CALLS = 500;
const SHORT = 300;

/** The code call an inner call belongs to, when `event` is one. */
export function codeCallOf(event: AgentEvent): CodeCallMark | undefined {
  const mark = event.meta?.codeCall as { id?: unknown; index?: unknown } | undefined;
  if (typeof mark !== 'object' || mark === null) return undefined;
  return typeof mark.id === 'string' && typeof mark.index === 'number' ? { id: mark.id, index: mark.index } : undefined;
}

/** A code call's program, bounded: `{ program, programCut? }`, or nothing for any other tool call. */
export function programView(call: ToolCallBlock): { program: string; programCut?: number } | undefined {
  const program = (call.args as { program?: unknown } | null)?.program;
  if (typeof program !== 'string') return undefined;
  if (program.length <= PROGRAM_CHARS) return { program };
  return { program: program.slice(0, PROGRAM_CHARS), programCut: program.length - PROGRAM_CHARS };
}

const short = (text: string) => (text.length > SHORT ? `${text.slice(0, SHORT - 1)}…` : text);

/**
 * The inner calls of the code calls `event` makes (each with its result, when stored), in the
 * order they were made, read from the session's `events`.
 */
export function innerCallsOf(
  event: AgentEvent,
  events: readonly AgentEvent[] | undefined,
): { innerCalls: InnerCallView[]; innerCallsCut?: number } | undefined {
  if (!events || event.message?.role !== 'assistant' || codeCallOf(event)) return undefined;
  const ids = new Set(toolCallsOf(event.message).flatMap((c) => (programView(c) ? [c.id] : [])));
  if (!ids.size) return undefined;
  const calls: InnerCallView[] = [];
  const byId = new Map<string, number>();
  let cut = 0;
  for (const [eventIndex, e] of events.entries()) {
    const mark = codeCallOf(e);
    if (!mark || !ids.has(mark.id)) continue;
    for (const call of toolCallsOf(e.message)) {
      if (calls.length >= INNER_CALLS) {
        cut++;
        continue;
      }
      byId.set(call.id, calls.length);
      calls.push({
        index: mark.index,
        id: call.id,
        name: call.name,
        args: short(JSON.stringify(call.args) ?? ''),
        isError: false,
        eventIndex,
      });
    }
    for (const result of toolResultsOf(e.message)) {
      const at = byId.get(result.toolCallId);
      if (at === undefined) continue;
      calls[at] = { ...(calls[at] as InnerCallView), output: short(stringifyToolOutput(result.output)), isError: result.isError === true };
    }
  }
  return cut ? { innerCalls: calls, innerCallsCut: cut } : { innerCalls: calls };
}
