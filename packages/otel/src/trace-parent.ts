import { isSpanContextValid, TraceFlags, type SpanContext } from '@opentelemetry/api';

/** A span context as a W3C `traceparent` value (version 00). */
export function formatTraceParent(span: SpanContext): string {
  return `00-${span.traceId}-${span.spanId}-${(span.traceFlags & 0xff).toString(16).padStart(2, '0')}`;
}

const TRACE_PARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;

/** The remote span context a stored `traceparent` names, or `undefined` when it is malformed. */
export function parseTraceParent(value: string | undefined): SpanContext | undefined {
  const match = value ? TRACE_PARENT.exec(value) : null;
  if (!match) return undefined;
  const span: SpanContext = {
    traceId: match[1] as string,
    spanId: match[2] as string,
    traceFlags: Number.parseInt(match[3] as string, 16) & TraceFlags.SAMPLED,
    isRemote: true,
  };
  return isSpanContextValid(span) ? span : undefined;
}
