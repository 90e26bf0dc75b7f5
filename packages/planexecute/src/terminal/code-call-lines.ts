import { stringifyToolOutput, type AgentEvent, type ToolCallBlock, type ToolResultBlock } from '@replan/core';
import { clip, type TerminalStyle } from './terminal-style.js';

/**
 * Code steps (`@replan/code`, design §22) as the tree shows them. A code call is an ordinary tool
 * call whose args are `{ program }`; each call its program makes is a tool-call event and a
 * tool-result event of their own, marked `meta.codeCall: { id, index }` (the code call's id and the
 * call's number). Read here from the event data, so this entry needs nothing from `@replan/code`.
 */

/** How many lines of a program the tree prints (the studio shows it whole, bounded). */
const PROGRAM_LINES = 6;

/** The code call an inner call belongs to, when `event` is one. */
export function codeCallOf(event: AgentEvent): { readonly id: string; readonly index: number } | undefined {
  const mark = event.meta?.codeCall as { id?: unknown; index?: unknown } | undefined;
  if (typeof mark !== 'object' || mark === null) return undefined;
  return typeof mark.id === 'string' && typeof mark.index === 'number' ? { id: mark.id, index: mark.index } : undefined;
}

/** The program of a code call (a tool call whose args are `{ program: string }`). */
export function programOf(call: ToolCallBlock): string | undefined {
  const program = (call.args as { program?: unknown } | null)?.program;
  return typeof program === 'string' ? program : undefined;
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: these are the characters being replaced
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/g;
const LINE = 100;

/**
 * A model-written line made safe for a terminal: control characters (escape sequences that could
 * rewrite the screen) shown as `?`, tabs as two spaces; its indentation kept, cut at 100 characters.
 */
function safeLine(line: string): string {
  const flat = line.replace(/\t/g, '  ').replace(CONTROL, '?').trimEnd();
  return flat.length > LINE ? `${flat.slice(0, LINE - 1)}…` : flat;
}

/** A call's arguments or result on one line, as `clip` makes tool lines, control characters made visible. */
const safeText = (text: string): string => clip(text.replace(CONTROL, '?'), 110);

/** The lines of a code call: its tool name, then the first lines of its program (dim), then how many were left out. */
export function codeCallLines(call: ToolCallBlock, program: string, indent: string, s: TerminalStyle): string[] {
  const lines = program.replace(/\r\n?/g, '\n').split('\n');
  while (lines.length && !lines[lines.length - 1]?.trim()) lines.pop();
  const shown = lines.slice(0, PROGRAM_LINES);
  const more = lines.length - shown.length;
  return [
    `${indent}${s.yellow('├─ code')} ${call.name} ${s.dim(`(a program of ${lines.length} line${lines.length === 1 ? '' : 's'})`)}`,
    ...shown.map((line) => `${indent}│  ${s.dim(`│ ${safeLine(line)}`)}`),
    ...(more > 0 ? [`${indent}│  ${s.dim(`│ … ${more} more line${more === 1 ? '' : 's'}`)}`] : []),
  ];
}

/** An inner call of a code call, one level below it: `#n tool name args`, or `#n returned …`. */
export function innerCallLine(index: number, block: ToolCallBlock | ToolResultBlock, indent: string, s: TerminalStyle): string {
  const at = `${indent}│  `;
  if (block.type === 'tool_call')
    return `${at}${s.yellow(`├─ #${index} tool`)} ${block.name} ${s.dim(safeText(JSON.stringify(block.args) ?? ''))}`;
  const mark = block.isError ? s.red(`├─ #${index} error`) : s.dim(`├─ #${index} returned`);
  return `${at}${mark} ${safeText(stringifyToolOutput(block.output))}`;
}
