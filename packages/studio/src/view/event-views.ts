import { eventKind, stringifyToolOutput, type AgentEvent, type ContentBlock } from '@replan/core';
import { guardrailBlockOf, guardrailBlockText, isMediaBlock, mediaPlaceholder, toolResultContent } from '@replan/core/agent-kit';
import { planExecuteEventKind } from '@replan/planexecute';
import type { BlockView, EventRow, EventView } from '../../web/src/wire-types.js';
import { codeCallOf, innerCallsOf, programView } from './code-call-view.js';
import { compactionLine, compactionView } from './compaction-view.js';
import { mediaView } from './media-views.js';
import { memoryLine, memoryView } from './memory-view.js';
import { tokensOf } from './tokens.js';
import { shownEvent } from './withheld-view.js';

const SUMMARY_LENGTH = 160;

/** JSON as readable text; strings stay as they are. */
export function asText(value: unknown): string {
  if (typeof value === 'string') return value;
  try {
    return JSON.stringify(value, null, 2) ?? String(value);
  } catch {
    return String(value);
  }
}

/** One line of `text`, cut at `max` characters. */
export const shorten = (text: string, max = SUMMARY_LENGTH): string => {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
};

function blockView(block: ContentBlock): BlockView {
  switch (block.type) {
    case 'text':
      return { type: 'text', text: block.text };
    case 'reasoning':
      return { type: 'reasoning', text: block.redacted ? '(redacted reasoning)' : block.reasoning };
    case 'tool_call':
      return { type: 'tool_call', id: block.id, name: block.name, args: block.rawArgs ?? asText(block.args), ...programView(block) };
    case 'tool_result': {
      const content = toolResultContent(block.output);
      const media = content?.filter(isMediaBlock).map(mediaView);
      return {
        type: 'tool_result',
        toolCallId: block.toolCallId,
        name: block.name,
        // Content blocks read as the model's text of them, images and files as placeholders.
        output: content ? stringifyToolOutput(content) : asText(block.output),
        isError: block.isError === true,
        ...(media?.length ? { media } : {}),
      };
    }
    default:
      // Images and files: what they are and their blob id, never their bytes.
      return { type: 'media', media: mediaView(block) };
  }
}

/** A short name for what the event is: the plan–execute meaning first, else core's. */
export function kindLabel(event: AgentEvent): string {
  const pe = planExecuteEventKind(event);
  if (pe && pe.kind !== 'step-progress' && pe.kind !== 'error') return pe.kind;
  const kind = eventKind(event);
  return kind.kind === 'other' ? String(event.meta?.kind ?? 'event') : kind.kind;
}

function summaryOf(event: AgentEvent, events?: readonly AgentEvent[], index = -1): string {
  const memory = memoryView(event);
  if (memory) return memoryLine(memory);
  const kind = eventKind(event);
  switch (kind.kind) {
    case 'compaction': {
      const view = compactionView(events, index) ?? { ...kind.compaction, turns: 0 };
      const usage = event.usage
        ? ` · summarizer ${event.usage.inputTokens.toLocaleString('en')} in / ${event.usage.outputTokens.toLocaleString('en')} out`
        : '';
      return `${compactionLine(view)}${usage}`;
    }
    case 'error':
      return `${kind.error.name}: ${kind.error.message}`;
    case 'end': {
      const blocked = guardrailBlockOf(event);
      if (blocked) return `${kind.status} — ${guardrailBlockText(blocked)}`;
      return `${kind.status}${kind.output ? ` — ${kind.output}` : ''}`;
    }
    case 'interrupt':
      return `${kind.interrupt.reason}: ${asText(kind.interrupt.payload)}`;
    case 'answer':
      // An answer from partial work (onExhausted: 'answer') says so, so its row is not read as the whole work.
      return kind.final.partial ? `partial (${kind.final.notRun?.length ?? 0} not run) · ${kind.final.text}` : kind.final.text;
    case 'tool-calls':
      return kind.calls.map((c) => `${c.name}(${asText(c.args)})`).join(', ');
    case 'tool-results':
      return `${grantNote(event)}${kind.results
        .map((r) => `${r.name} → ${toolResultContent(r.output) ? stringifyToolOutput(r.output) : asText(r.output)}`)
        .join(', ')}`;
    case 'resume':
      return `resumed ${asText(kind.values)}`;
    case 'user-message':
    case 'message':
    case 'text-delta':
    case 'reasoning-delta':
      return event.message
        ? event.message.content
            .map((b) => (b.type === 'text' ? b.text : b.type === 'reasoning' ? b.reasoning : isMediaBlock(b) ? mediaPlaceholder(b) : ''))
            .join(' ')
        : '';
    case 'cursor':
      return asText(kind.state);
    case 'state':
      return `state: ${Object.keys(kind.delta).concat(Object.keys(kind.append)).join(', ')}`;
    default:
      return '';
  }
}

/** A timeline row; `events` (the session's, `event` at `index`) lets a compaction say how many turns it summarised. */
export function eventRow(stored: AgentEvent, index: number, events?: readonly AgentEvent[]): EventRow {
  const event = shownEvent(stored, events);
  const codeCall = codeCallOf(event);
  const depth = event.path.split('/').length - 1;
  return {
    index,
    id: event.id,
    author: event.author,
    path: event.path,
    // A code call's inner calls are drawn one level below it.
    depth: codeCall ? depth + 1 : depth,
    timestamp: event.timestamp,
    kind: kindLabel(event),
    summary: shorten(`${codeCall ? `#${codeCall.index} ` : ''}${summaryOf(event, events, index)}`),
    hasError: event.error !== undefined,
    ...(codeCall ? { codeCall } : {}),
  };
}

/** An event's detail; `events` as for `eventRow`. */
export function eventView(stored: AgentEvent, index: number, events?: readonly AgentEvent[]): EventView {
  const event = shownEvent(stored, events);
  const compaction = compactionView(events, index);
  const memory = memoryView(event);
  const codeCall = codeCallOf(event);
  return {
    index,
    author: event.author,
    path: event.path,
    timestamp: event.timestamp,
    ...(event.message ? { role: event.message.role } : {}),
    blocks: event.message ? event.message.content.map(blockView) : [],
    ...(event.usage ? { tokens: tokensOf(event.usage) } : {}),
    ...(event.error ? { error: { name: event.error.name, message: event.error.message } } : {}),
    ...(compaction ? { compaction } : {}),
    ...(grantOf(event) !== undefined ? { grantedBy: grantOf(event) as string } : {}),
    ...(memory ? { memory } : {}),
    ...(codeCall ? { codeCall } : {}),
    ...innerCallsOf(event, events),
  };
}

/** The plan review that granted a tool call (plan–execute `review.grants`), from its result event's meta. */
const grantOf = (event: AgentEvent): string | undefined => (typeof event.meta?.grantedBy === 'string' ? event.meta.grantedBy : undefined);
const grantNote = (event: AgentEvent): string => (grantOf(event) === undefined ? '' : `granted by plan review ${grantOf(event)} · `);

/** Whether an event was written by `agent` (an agent path) or by an agent nested below it. */
export const byAgent = (event: AgentEvent, agent: string): boolean => event.path === agent || event.path.startsWith(`${agent}/`);

/** The user's first input, for the sessions list. */
export function previewOf(events: readonly AgentEvent[]): string {
  const first = events.find((e) => e.author === 'user' && e.message);
  return first ? shorten(summaryOf(first), 100) : '';
}
