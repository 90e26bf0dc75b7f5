import { ROOT_CONTEXT, SpanKind, trace, type Attributes, type Context, type Span, type Tracer } from '@opentelemetry/api';
import type { LifecycleInfo } from '@replan/core';
import { Attr } from './attributes.js';
import { contentValue } from './content.js';
import { fail } from './span-failure.js';

/**
 * Opens a tool call's `execute_tool` span. `open` holds the run's open tool spans by call id;
 * `parent` is the context of the calling agent's span (or the run's root).
 */
export function startToolSpan(
  tracer: Tracer,
  info: LifecycleInfo<'tool-call-start'>,
  open: ReadonlyMap<string, Span>,
  parent: Context,
): Span {
  // As for model calls: sampling attributes at the start, the rest when the span ends.
  const attributes: Attributes = { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': info.toolName };
  // A code call's inner calls (`@replan/code`, ids `<codeCallId>#<n>`) hang under the code call's span.
  const outer = innerCallParent(info.toolCallId, open);
  if (outer) attributes[Attr.codeCallIndex] = outer.index;
  if (info.compensates !== undefined) attributes[Attr.compensates] = info.compensates;
  return tracer.startSpan(
    `execute_tool ${info.toolName}`,
    { kind: SpanKind.INTERNAL, startTime: info.time, attributes },
    outer ? trace.setSpan(ROOT_CONTEXT, outer.span) : parent,
  );
}

/** Ends a tool call's span: its id and type, the arguments and result with content capture, and a failure's status. */
export function endToolSpan(span: Span, info: LifecycleInfo<'tool-call-end'>, captureContent: boolean): void {
  const attributes: Attributes = {
    'gen_ai.tool.call.id': info.toolCallId,
    'gen_ai.tool.type': 'function',
    'gen_ai.conversation.id': info.sessionId,
  };
  if (captureContent) {
    attributes[Attr.toolArguments] = contentValue(info.args);
    if (info.output !== undefined) attributes[Attr.toolResult] = contentValue(info.output);
  }
  if (info.interrupted) attributes[Attr.interrupted] = true;
  span.setAttributes(attributes);
  if (info.error) fail(span, info.error);
  else if (info.isError) fail(span, undefined, 'tool_error', typeof info.output === 'string' ? info.output : undefined);
  span.end(info.time);
}

/**
 * The open span of the code call an inner call belongs to: inner calls of a code step have ids
 * `<codeCallId>#<n>` (n the call's number) and run while their code call's span is open.
 */
function innerCallParent(toolCallId: string, open: ReadonlyMap<string, Span>): { span: Span; index: number } | undefined {
  const at = toolCallId.lastIndexOf('#');
  if (at <= 0) return undefined;
  const index = Number(toolCallId.slice(at + 1));
  const span = open.get(toolCallId.slice(0, at));
  return span && /^\d{1,9}$/.test(toolCallId.slice(at + 1)) ? { span, index } : undefined;
}
