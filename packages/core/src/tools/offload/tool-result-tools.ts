import { z } from 'zod';
import type { InvocationContext } from '../../invocation/invocation-context.js';
import type { AgentEvent } from '../../events/agent-event.js';
import { type Tool, tool } from '../tool.js';
import type { ToolContext } from '../tool-context.js';
import { type LineHit, searchLinesByRegex } from './regex-search.js';
import { offloadedText, READ_TOOL_RESULT, SEARCH_TOOL_RESULT } from './tool-result-preview.js';

const MAX_MATCHES = 50;
const MAX_LINE = 500;

/** Finds the whole stored result of a tool call (the calling tool's context says which run), or throws an error the model is shown. */
export type ToolResultLookup = (toolCallId: string, ctx: ToolContext) => string;

/**
 * The two tools `offloadToolResults()` adds, over `lookup` — `storedToolResult` of the run that
 * calls them, so they read only this session's results.
 */
export function toolResultTools(lookup: ToolResultLookup, maxChars: number): readonly Tool[] {
  const read = tool({
    name: READ_TOOL_RESULT,
    description:
      'Read part of an earlier tool result that was shown shortened. Returns the characters [offset, offset + length) of the whole result.',
    parameters: z.object({
      toolCallId: z.string().describe('The id of the tool call whose result to read'),
      offset: z.number().int().min(0).optional().describe('The first character to read (default 0)'),
      length: z.number().int().min(1).optional().describe(`How many characters (default and at most ${maxChars})`),
    }),
    execute: ({ toolCallId, offset = 0, length = maxChars }, ctx) => {
      const text = lookup(toolCallId, ctx);
      if (offset >= text.length && !(offset === 0 && text.length === 0))
        throw new Error(`offset ${offset} is past the end of the result of "${toolCallId}" (${text.length} characters).`);
      const end = Math.min(text.length, offset + Math.min(length, maxChars));
      return { toolCallId, offset, end, total: text.length, text: text.slice(offset, end) };
    },
  });
  const search = tool({
    name: SEARCH_TOOL_RESULT,
    description:
      'Find the lines of an earlier tool result that contain a substring, or match a regular expression written as /pattern/flags. Returns each line (a long one: the part around the match) with its number and character offset.',
    parameters: z.object({
      toolCallId: z.string().describe('The id of the tool call whose result to search'),
      pattern: z.string().min(1).describe('A substring, or a regular expression as /pattern/flags'),
    }),
    execute: async ({ toolCallId, pattern }, ctx) => {
      const text = lookup(toolCallId, ctx);
      const lines = text.split('\n');
      const hits = await matchingLines(lines, text, pattern, ctx.signal);
      const starts: number[] = [];
      let offset = 0;
      for (const line of lines) {
        starts.push(offset);
        offset += line.length + 1;
      }
      const found = hits
        .slice(0, MAX_MATCHES)
        .map(({ line, at }) => ({ line: line + 1, ...excerpt(lines[line] as string, starts[line] as number, at) }));
      const matchCount = hits.length;
      return { toolCallId, total: text.length, matchCount, matches: found, ...(matchCount > found.length ? { truncated: true } : {}) };
    },
  });
  return [read, search];
}

/** The line, or a window of it around the match when it is long (a result of one long line: minified JSON, a page), with its offset. */
function excerpt(line: string, lineOffset: number, at: number): { offset: number; text: string } {
  if (line.length <= MAX_LINE) return { offset: lineOffset, text: line };
  const start = Math.max(0, Math.min(at - 100, line.length - MAX_LINE));
  const end = start + MAX_LINE;
  return { offset: lineOffset + start, text: `${start > 0 ? '…' : ''}${line.slice(start, end)}${end < line.length ? '…' : ''}` };
}

/**
 * The lines where `pattern` (a substring, or `/regex/flags`) matches, with where the match starts. A regex
 * is the model's own and may backtrack without end: it runs in a worker with a deadline (regex-search.ts).
 */
async function matchingLines(lines: readonly string[], text: string, pattern: string, signal: AbortSignal): Promise<LineHit[]> {
  const regex = /^\/(.+)\/([a-z]*)$/s.exec(pattern);
  if (regex) return searchLinesByRegex(text, pattern, regex[1] as string, (regex[2] as string).replace(/[gy]/g, ''), signal);
  const hits: LineHit[] = [];
  lines.forEach((line, i) => {
    const at = line.indexOf(pattern);
    if (at >= 0) hits.push({ line: i, at });
  });
  return hits;
}

/** The whole stored result of `toolCallId` in this session: this agent's own call first, then any visible one. */
export function storedToolResult(ctx: InvocationContext, toolCallId: string): string {
  const own = findResult(ctx.ownEvents(), toolCallId);
  if (own !== undefined) return own;
  const visible = findResult(
    ctx.events.filter((e) => ctx.isVisible(e)),
    toolCallId,
  );
  if (visible !== undefined) return visible;
  throw new Error(`No tool result with id "${toolCallId}" in this session. Use the toolCallId given in the shortened result's note.`);
}

function findResult(events: readonly AgentEvent[], toolCallId: string): string | undefined {
  for (let i = events.length - 1; i >= 0; i--) {
    const message = events[i]?.message;
    if (message?.role !== 'tool' || events[i]?.partial) continue;
    for (const block of message.content)
      if (
        block.type === 'tool_result' &&
        block.toolCallId === toolCallId &&
        block.name !== READ_TOOL_RESULT &&
        block.name !== SEARCH_TOOL_RESULT
      )
        return offloadedText(block.output);
  }
  return undefined;
}
